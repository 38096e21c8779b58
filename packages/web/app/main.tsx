import { render } from 'preact';
import './style.css';
import './run.css';
import { setKey, storedKey, useAuth } from './auth';
import { ErrorBox } from './components/common';
import { KeyForm } from './components/key-form';
import { ComparePage } from './pages/compare';
import { DocumentPage } from './pages/document';
import { type PageView, RunPage, StaticRunPage } from './pages/run';
import { RunsPage } from './pages/runs';
import { SideBySidePage } from './pages/side-by-side';
import { href, type Route, useRoute } from './router';

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'runs':
      return <RunsPage />;
    case 'run':
      return <RunPage key={route.runId} runId={route.runId} />;
    case 'document':
      return (
        <DocumentPage
          key={`${route.runId}/${route.documentId}`}
          runId={route.runId}
          documentId={route.documentId}
        />
      );
    case 'side-by-side':
      return (
        <SideBySidePage
          key={`${route.runId}/${route.documentId}`}
          runId={route.runId}
          documentId={route.documentId}
        />
      );
    case 'compare':
      return <ComparePage runs={route.runs} metric={route.metric} />;
    case 'not-found':
      return (
        <main>
          <ErrorBox error={`No page at #${route.hash}`} />
        </main>
      );
  }
}

function App() {
  const route = useRoute();
  const auth = useAuth();
  return (
    <>
      <nav class="topbar">
        <a class="brand" href={href.runs()}>
          Precis
        </a>
        <a href={href.runs()}>Runs</a>
        {storedKey() && !auth.needed ? (
          <button type="button" class="link" onClick={() => setKey(null)}>
            Forget API key
          </button>
        ) : null}
      </nav>
      {auth.needed !== null ? <KeyForm message={auth.needed} /> : null}
      <Page route={route} />
    </>
  );
}

// A report file embeds its data: draw that run only, without the API.
function readEmbedded(el: HTMLElement): PageView | Error {
  try {
    const data: unknown = JSON.parse(el.textContent ?? '');
    if (typeof data !== 'object' || data === null || !('blocks' in data) || !Array.isArray(data.blocks))
      return new Error('the embedded report data has no blocks');
    const view = data as PageView;
    return { ...view, figures: Array.isArray(view.figures) ? view.figures : [] };
  } catch (e) {
    return new Error(`the embedded report data is not readable JSON (${e instanceof Error ? e.message : e})`);
  }
}

const root = document.getElementById('app') ?? document.body;
const embedded = document.getElementById('precis-data');
if (embedded) {
  const view = readEmbedded(embedded);
  render(
    view instanceof Error ? (
      <main>
        <ErrorBox error={view} />
      </main>
    ) : (
      <StaticRunPage view={view} />
    ),
    root,
  );
} else {
  render(<App />, root);
}
