// The page's colours: Auto (the system's `prefers-color-scheme`), Light or Dark, chosen in the
// header and kept in the browser (localStorage) for the next visit. The choice is the class
// `dark` on the root element, which playground.css's dark rules hang on, and the theme the
// board is drawn in (the module's `board` takes `theme`).

const KEY = 'ctlpgn-playground-theme';
const CHOICES = ['auto', 'light', 'dark'];
const system = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;

/** The choice kept from the last visit, `auto` when none (or storage is refused). */
function kept() {
  try {
    const choice = localStorage.getItem(KEY);
    return CHOICES.includes(choice) ? choice : 'auto';
  } catch {
    return 'auto';
  }
}

export class Theme {
  /** Drives `select` (a `<select>` of the three choices); `changed()` is called when the colours change. */
  constructor(select, changed) {
    this.select = select;
    this.changed = changed;
    this.choice = kept();
    select.value = this.choice;
    select.addEventListener('change', () => {
      this.choice = CHOICES.includes(select.value) ? select.value : 'auto';
      try {
        localStorage.setItem(KEY, this.choice);
      } catch {
        // A page that may not store anything still switches for this visit.
      }
      this.#apply();
    });
    system?.addEventListener('change', () => {
      if (this.choice === 'auto') {
        this.#apply();
      }
    });
    this.#apply();
  }

  /** The colours in force: `light` or `dark`. */
  get colours() {
    return this.choice === 'auto' ? (system?.matches ? 'dark' : 'light') : this.choice;
  }

  #apply() {
    const dark = this.colours === 'dark';
    document.documentElement.classList.toggle('dark', dark);
    document.documentElement.dataset.theme = this.colours;
    this.changed();
  }
}
