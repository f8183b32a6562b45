// TypeScript declarations of the npm package ctlpgn-viewer: the <ctlpgn-viewer> element
// (web/viewer/viewer.js), its attributes, properties, methods and events. Importing the
// package registers the element, so `document.querySelector('ctlpgn-viewer')` is typed too.

/** The colours: `light` (the default), `dark`, or `auto`, which follows `prefers-color-scheme`. */
export type CtlpgnViewerTheme = 'light' | 'dark' | 'auto';

/** The `detail` of a `ply-change` event: the half-move now shown. */
export interface PlyChangeDetail {
  /** Its place in its line of play: 1 for the first half-move, 0 for the start. */
  readonly ply: number;
  /** The half-move as the record writes it (`"JF6-C15"`), or null at the start. */
  readonly move: string | null;
  /** The PDTL of the position after it: one string, or null when no PDTL is known for it. */
  readonly pdtl: string | null;
}

/** The element's own events, with their types. */
export interface CtlpgnViewerEventMap extends HTMLElementEventMap {
  /** The record was read and its first position drawn. */
  ready: Event;
  /** The half-move shown changed, by any means: a key, a click, a button, play, goTo, the `ply` attribute. It bubbles. */
  'ply-change': CustomEvent<PlyChangeDetail>;
}

/**
 * The attributes, for a framework's typings of custom elements (JSX and the like): the
 * record's address (`src`, else the element's text is the record), which record of the file
 * (`record`, from 1; the first by default), the main line's half-move shown first (`ply`), Black at the bottom (`flip`), the colours (`theme`), and the
 * WebAssembly module's address (`wasm`, against the page; default: beside the script).
 */
export interface CtlpgnViewerAttributes {
  src?: string;
  record?: number | string;
  ply?: number | string;
  flip?: boolean | '';
  theme?: CtlpgnViewerTheme;
  wasm?: string;
}

/** `<ctlpgn-viewer>`: a CTL-PGN record's players, board, moves, variations and comments. */
export class CtlpgnViewer extends HTMLElement {
  /**
   * Where viewers without a `wasm` attribute load the module from; by default
   * `new URL('./ctlpgn_web.wasm', import.meta.url)`, beside the package's module. Set it in the
   * module that imports the package (its code runs before the viewers start).
   */
  static wasm: URL | string;
  static readonly observedAttributes: string[];

  /** Shows the main line's half-move `ply` (0: the start; past the end: its last). Before `ready`, the one shown first. */
  goTo(ply: number): void;
  /** Turns the board round: toggles the `flip` attribute. */
  flip(): void;

  /** The ply of the half-move shown in its line of play (0: the start); setting it is goTo. */
  ply: number;
  /** The half-move shown as the record writes it, or null at the start. */
  readonly move: string | null;
  /** The PDTL of the position shown, or null. */
  readonly pdtl: string | null;
  /** Whether Black stands at the bottom. */
  readonly flipped: boolean;
  /** The `theme` attribute (`light` when absent or unknown). */
  theme: CtlpgnViewerTheme;

  addEventListener<K extends keyof CtlpgnViewerEventMap>(
    type: K,
    listener: (this: CtlpgnViewer, event: CtlpgnViewerEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof CtlpgnViewerEventMap>(
    type: K,
    listener: (this: CtlpgnViewer, event: CtlpgnViewerEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'ctlpgn-viewer': CtlpgnViewer;
  }
}
