import { useState } from 'preact/hooks';
import { setKey } from '../auth';

// Shown after a 401: the key is kept in localStorage and sent as a Bearer token from then on.
export function KeyForm({ message }: { message: string }) {
  const [value, setValue] = useState('');
  const submit = (e: Event) => {
    e.preventDefault();
    const key = value.trim();
    if (key) setKey(key);
  };
  return (
    <form class="key-form" data-testid="key-form" onSubmit={submit}>
      <p>
        This server requires an API key <span class="muted">({message})</span>.
      </p>
      <label>
        API key{' '}
        <input
          type="password"
          autoComplete="off"
          value={value}
          onInput={(e) => setValue(e.currentTarget.value)}
          required
        />
      </label>{' '}
      <button type="submit">Use key</button>
    </form>
  );
}
