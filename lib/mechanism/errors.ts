/** Thrown by pure code when an argument is out of its domain; the message says what to change. */
export class MathInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MathInputError";
  }
}

/** Throws a MathInputError unless `ok`. */
export function check(ok: boolean, message: string): asserts ok {
  if (!ok) throw new MathInputError(message);
}
