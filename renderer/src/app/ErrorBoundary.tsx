import { Component, type ErrorInfo, type ReactNode } from 'react';
import { TriangleAlert } from 'lucide-react';

interface State {
  error: Error | null;
}

/** A screen that breaks says so, with the error, instead of leaving a blank window. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey: string }): void {
    // Moving to another view gives the new one a fresh start.
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Hookbench UI error', error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div role="alert" className="flex h-full items-center justify-center p-8">
        <section className="max-w-lg rounded-xl border border-err/40 bg-panel p-6">
          <TriangleAlert aria-hidden className="size-6 text-err" />
          <h1 className="mt-3 text-lg font-semibold">This view stopped working</h1>
          <p className="mt-2 text-[13px] text-muted">The rest of Hookbench still runs; the engine keeps forwarding. Reload to try again.</p>
          <pre className="mt-3 overflow-x-auto rounded bg-panel-2 p-2 font-mono text-xs text-err">{error.message}</pre>
          <button type="button" onClick={() => window.location.reload()} className="mt-4 h-8 rounded-md bg-accent px-3 text-[13px] font-medium text-accent-fg">
            Reload
          </button>
        </section>
      </div>
    );
  }
}
