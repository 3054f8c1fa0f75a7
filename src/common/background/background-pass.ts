/**
 * A worker's pass, run in the background one at a time: a kick while a pass runs asks for exactly
 * one more after it (however many kicks came), so work committed during a pass is never left for
 * the next poll. Errors go to `onError`; `stop` waits for the running pass, after which kicks do
 * nothing and the pass's own loop should end (`stopped`).
 */
export class BackgroundPass {
  private running: Promise<void> | null = null;
  private again = false;
  private ended = false;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly onError: (err: Error) => void,
  ) {}

  /** Whether `stop` was called: a pass that loops checks it between steps. */
  get stopped(): boolean {
    return this.ended;
  }

  kick(): void {
    if (this.ended) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .then(
        () => undefined,
        (err: unknown) => this.onError(err instanceof Error ? err : new Error(String(err))),
      )
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Resolves when no pass runs, including the one a kick during the last pass asked for. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.ended = true;
    await this.running;
  }
}
