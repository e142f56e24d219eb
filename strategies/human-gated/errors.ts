// Generated from personhood src/rules/errors.ts
// by `npm run strategies:rules`: change the source, not this copy.

/**
 * The error a rule throws for an input it cannot judge.
 */

/** The error a rule throws for an input it cannot judge; `parameter` names the input. */
export class RuleParameterError extends Error {
  readonly parameter: string;
  readonly reason: string;
  constructor(parameter: string, reason: string) {
    super(`Parameter "${parameter}" is invalid: ${reason}`);
    this.name = 'RuleParameterError';
    this.parameter = parameter;
    this.reason = reason;
  }
}
