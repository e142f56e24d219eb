// Generated from personhood src/rules/reader-verdicts.ts
// by `npm run strategies:rules`: change the source, not this copy.

/** SBT credentials judged from the reader's answer; what it cannot tell is a `problem`. */
import { readerSbtReads, readerStore } from './reader';
import { classifySbt, judgeHumanIdCredential } from './sbt';

// The rules' types, named here (score-api's lint forbids type-only imports).
type ReaderSbt = Parameters<typeof readerSbtReads>[0];
type SbtVerdict = Parameters<typeof judgeHumanIdCredential>[0]['primary'];

/** What the reader's answer cannot tell: the sentence the caller throws. */
export type ReaderProblem = { problem: string };

/** One SBT record classified at `at`: the reader skipped it, or the hub contradicts itself. */
function judgeSbt(
  sbt: ReaderSbt,
  circuit: string,
  judge: { at: bigint; voter: string; actionId: bigint; issuer: bigint }
): SbtVerdict | ReaderProblem {
  const { at, actionId, issuer } = judge;
  const reads = readerSbtReads(sbt, at, judge.voter, { actionId, issuer });
  if (!reads) return { problem: `The reader skipped the ${circuit} SBT.` };
  const verdict = classifySbt({
    ...reads,
    blockTimestamp: at,
    actionId,
    issuer
  });
  if (verdict.status === 'classified') return verdict;
  // The reader reads sbtOwners whenever getSBT reverts, and gives the time.
  const details = 'details' in verdict ? verdict.details : verdict.status;
  return {
    problem: `The Human ID Hub contradicts itself on the ${circuit} SBT: ${details}`
  };
}

/** A credential from its records at `at` by judgeHumanIdCredential (./sbt.ts), and its steps. */
export function judgeReaderCredential(parameters: {
  records: { primary: ReaderSbt; passport?: ReaderSbt | undefined };
  credential: string;
  at: bigint;
  voter: string;
  actionId: bigint;
  /** By circuit: the credential's issuer and zk-passport's. */
  issuers: Readonly<Record<string, bigint>>;
  store?: string | false | undefined;
}):
  | {
      verdict: ReturnType<typeof judgeHumanIdCredential>;
      primary: SbtVerdict;
      passport: SbtVerdict | undefined;
      legacy: boolean | undefined;
    }
  | ReaderProblem {
  const { records, credential, issuers, store } = parameters;
  const judge = (sbt: ReaderSbt, circuit: string) =>
    judgeSbt(sbt, circuit, {
      ...parameters,
      issuer: issuers[circuit] as bigint
    });
  const primary = judge(records.primary, credential);
  if ('problem' in primary) return primary;
  let passport: SbtVerdict | undefined;
  if (primary.reason !== 'valid' && records.passport) {
    const judged = judge(records.passport, 'zk-passport');
    if ('problem' in judged) return judged;
    passport = judged;
  }
  let legacy: boolean | undefined;
  if (store && primary.reason !== 'valid' && passport?.reason !== 'valid') {
    legacy = readerStore(records.primary);
    if (legacy === undefined) {
      const problem = `The reader skipped the permanent ${credential} store ${store}.`;
      return { problem };
    }
  }
  const verdict = judgeHumanIdCredential({ primary, passport, legacy });
  return { verdict, primary, passport, legacy };
}
