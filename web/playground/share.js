// A record shared by URL: its text compressed (deflate-raw) and written in base64url in the
// fragment, `#record=…`, which the browser never sends to a server.

const PREFIX = '#record=';

async function through(bytes, stream) {
  const piped = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(piped).arrayBuffer());
}

function base64url(bytes) {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function unbase64url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The fragment that holds `text`. */
export async function fragmentOf(text) {
  const compressed = await through(new TextEncoder().encode(text), new CompressionStream('deflate-raw'));
  return PREFIX + base64url(compressed);
}

/** The record of a fragment, null when it holds none; throws when it is damaged. */
export async function recordOf(fragment) {
  if (!fragment.startsWith(PREFIX)) {
    return null;
  }
  const bytes = await through(unbase64url(fragment.slice(PREFIX.length)), new DecompressionStream('deflate-raw'));
  return bytes;
}
