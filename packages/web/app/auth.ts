import { useEffect, useState } from 'preact/hooks';

// The API key the server may require (401): kept in localStorage and sent as a Bearer token.
const STORAGE_KEY = 'precis.apiKey';

interface AuthState {
  // The server's message from the last 401, while the key form should be shown.
  needed: string | null;
  // Bumped whenever the key changes, so fetches that failed run again.
  version: number;
}

let state: AuthState = { needed: null, version: 0 };
const listeners = new Set<() => void>();

function update(next: AuthState): void {
  state = next;
  for (const l of listeners) l();
}

export function storedKey(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function setKey(key: string | null): void {
  try {
    if (key) localStorage.setItem(STORAGE_KEY, key);
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage can be disabled (private mode): the key then only lasts for this request cycle.
  }
  update({ needed: null, version: state.version + 1 });
}

export function keyRequired(message: string): void {
  if (state.needed !== message) update({ ...state, needed: message });
}

export function useAuth(): AuthState {
  const [current, setCurrent] = useState(state);
  useEffect(() => {
    const l = () => setCurrent(state);
    listeners.add(l);
    l();
    return () => {
      listeners.delete(l);
    };
  }, []);
  return current;
}
