// Generated from personhood src/verify/human-id-reader.ts by
// `npm run strategies:rules`. Do not edit: change the source and run the
// command again. The library and this folder call the reader (./reader.sol)
// with this same code, and a test fails when this copy differs from its source.

/**
 * The protocol of the human-id deployless reader (strategies/human-id/reader.sol) in one
 * dependency-free module: its creation code, the layout of its arguments, how voters are cut into
 * calls, and its packed answer decoded into the inputs of the rules (./rules.ts). It reads nothing
 * and judges nothing. It has no import statement, so it is copied verbatim into the score-api
 * folder `strategies/human-id` (`npm run strategies:rules`), and the library and the folder speak
 * to the reader with one code. It is written in score-api's prettier style and compiles under
 * TypeScript 4.7 (CommonJS) as under the package's own settings.
 */

/**
 * The reader's creation code, compiled from strategies/human-id/reader.sol by
 * `npm run strategies:reader` (solc 0.8.28, optimizer 200 runs, EVM cancun); a
 * test compiles it and compares the bytes.
 */
export const readerCode =
  '0x608060405234801561000f575f5ffd5b5060405161111738038061111783398101604081905261002e91610c7d565b5f805b855181101561007d5785818151811061004c5761004c610d66565b602002602001015160600151610063576002610066565b60045b6100739060ff1683610d8e565b9150600101610031565b505f6014855161008d9190610da1565b90505f600a845161009e9190610da1565b90505f816100ac8585610dc0565b6100b7906060610d8e565b6100c19190610d8e565b6001600160401b038111156100d8576100d86109ee565b6040519080825280601f01601f191660200182016040528015610102576020820181803683370190505b5042602082015243604082015246606082015290505f610124828b8b8b61013b565b90506101338282898b8a6101bf565b815160208301f35b6040516060905f5b601484516101519190610da1565b8110156101b5575f6101638583610255565b90505f5b86518110156101ab5761019c89868a8a858151811061018857610188610d66565b6020026020010151866102b560201b60201c565b60408590529450600101610167565b5050600101610143565b5050949350505050565b6040515f5b600a83516101d29190610da1565b81101561024c57600a810283016020015160c081901c9060b01c61ffff165f6101fb8783610255565b90506102088884836103eb565b60f81b8a610216868c610d8e565b8151811061022657610226610d66565b60200101906001600160f81b03191690815f1a90535050506040839052506001016101c4565b50505050505050565b5f601483516102649190610da1565b82106102a65760405162461bcd60e51b815260206004820152600d60248201526c37379039bab1b4103b37ba32b960991b604482015260640160405180910390fd5b50601402016020015160601c90565b5f80806102c386868661055b565b9092509050866102d4600282610d8e565b975085606001511561031a575f82610300576102fb8889604001518861055b60201b60201c565b935090505b61030b8a8a8361078e565b61031660028a610d8e565b9850505b81158015610334575060408601516001600160a01b031615155b156103d35760408087015160208901519151634b12468960e11b81526001600160a01b03888116600483015260248201939093525f92909116906396248d1290604401602060405180830381865afa158015610392573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906103b69190610dd7565b9050806103c5576101006103c9565b6103005b61ffff1684179350505b6103de89828561078e565b5095979650505050505050565b825160405162c44a5160e71b81526001600160401b03841660048201525f9182916001600160a01b03909116906362252880906024015f60405180830381865afa15801561043b573d5f5f3e3d5ffd5b505050506040513d5f823e601f3d908101601f191682016040526104629190810190610e85565b905080604001516001600160401b03165f14158061048c575060808101516001600160a01b031615155b15610498576001821791505b84602001516001600160401b0316815f01516001600160401b0316036104bf576002821791505b84604001516001600160a01b031681608001516001600160a01b0316036104e7576004821791505b8060e00151156104f8576008821791505b428160a001516001600160401b03161115610514576010821791505b61010081015151156105535761054e8161010001515f8151811061053a5761053a610d66565b6020026020010151846107fa60201b60201c565b821791505b509392505050565b82518251604051636f8a8c6960e01b81526001600160a01b03848116600483015260248201929092525f9283921690636f8a8c69906044015f60405180830381865afa9250505080156105cf57506040513d5f823e601f3d908101601f191682016040526105cc9190810190610fa6565b60015b6106ba57845184516040516001600160601b0319606087901b16602082015260348101919091525f9182916001600160a01b03909116906335abf9c990605401604051602081830303815290604052805190602001206040518263ffffffff1660e01b815260040161064391815260200190565b6040805180830381865afa15801561065d573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906106819190611083565b91509150600193508015610696576004841793505b428210156106a5576008841793505b815f036106b3576010841793505b5050610786565b6020810151604082015160039450156106d4576004841793505b81514211156106e4576008841793505b60048151111561077d5760108417935085602001518160048151811061070c5761070c610d66565b602002602001015103610720576020841793505b86602001518160028151811061073857610738610d66565b60200260200101510361074c576040841793505b846001600160a01b03168160018151811061076957610769610d66565b60200260200101510361077d576080841793505b8360f314925050505b935093915050565b600881901c60f81b8383815181106107a8576107a8610d66565b60200101906001600160f81b03191690815f1a90535060f881901b836107cf846001610d8e565b815181106107df576107df610d66565b60200101906001600160f81b03191690815f1a905350505050565b5f60408351101561080c57505f6109e8565b60208381015160408501519091821461082a576040925050506109e8565b80602a14158061083b5750606a8551105b1561084a575f925050506109e8565b8460408151811061085d5761085d610d66565b6020910101516001600160f81b031916600360fc1b1415806108d657508460418151811061088d5761088d610d66565b6020910101516001600160f81b031916600f60fb1b148015906108d65750846041815181106108be576108be610d66565b6020910101516001600160f81b031916600b60fb1b14155b156108e5575f925050506109e8565b5f60425b606a8110156109bf575f87828151811061090557610905610d66565b016020015160f81c90505f60308210801590610925575060398260ff1611155b1561093c576109356030836110ad565b905061099a565b60618260ff1610158015610954575060668260ff1611155b15610964576109356057836110ad565b60418260ff161015801561097c575060468260ff1611155b1561098c576109356037836110ad565b5f96505050505050506109e8565b60ff81166109a98560106110c6565b6109b391906110f7565b935050506001016108e9565b50846001600160a01b0316816001600160a01b0316146109df575f6109e2565b60205b93505050505b92915050565b634e487b7160e01b5f52604160045260245ffd5b604051606081016001600160401b0381118282101715610a2457610a246109ee565b60405290565b60405161014081016001600160401b0381118282101715610a2457610a246109ee565b604051601f8201601f191681016001600160401b0381118282101715610a7557610a756109ee565b604052919050565b80516001600160a01b0381168114610a93575f5ffd5b919050565b80518015158114610a93575f5ffd5b5f60808284031215610ab7575f5ffd5b604051608081016001600160401b0381118282101715610ad957610ad96109ee565b604090815283518252602080850151908301529091508190610afc908401610a7d565b6040820152610b0d60608401610a98565b60608201525092915050565b5f6001600160401b03821115610b3157610b316109ee565b5060051b60200190565b5f82601f830112610b4a575f5ffd5b8151610b5d610b5882610b19565b610a4d565b8082825260208201915060208360071b860101925085831115610b7e575f5ffd5b602085015b83811015610ba557610b958782610aa7565b8352602090920191608001610b83565b5095945050505050565b5f82601f830112610bbe575f5ffd5b81516001600160401b03811115610bd757610bd76109ee565b610bea601f8201601f1916602001610a4d565b818152846020838601011115610bfe575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b80516001600160401b0381168114610a93575f5ffd5b5f60608284031215610c40575f5ffd5b610c48610a02565b9050610c5382610a7d565b8152610c6160208301610c1a565b6020820152610c7260408301610a7d565b604082015292915050565b5f5f5f5f5f858703610180811215610c93575f5ffd5b60c0811215610ca0575f5ffd5b50610ca9610a02565b610cb287610a7d565b815260208781015190820152610ccb8860408901610aa7565b604082015260c08701519095506001600160401b03811115610ceb575f5ffd5b610cf788828901610b3b565b60e088015190955090506001600160401b03811115610d14575f5ffd5b610d2088828901610baf565b935050610d31876101008801610c30565b6101608701519092506001600160401b03811115610d4d575f5ffd5b610d5988828901610baf565b9150509295509295909350565b634e487b7160e01b5f52603260045260245ffd5b634e487b7160e01b5f52601160045260245ffd5b808201808211156109e8576109e8610d7a565b5f82610dbb57634e487b7160e01b5f52601260045260245ffd5b500490565b80820281158282048414176109e8576109e8610d7a565b5f60208284031215610de7575f5ffd5b610df082610a98565b9392505050565b805160ff81168114610a93575f5ffd5b5f82601f830112610e16575f5ffd5b8151610e24610b5882610b19565b8082825260208201915060208360051b860101925085831115610e45575f5ffd5b602085015b83811015610ba55780516001600160401b03811115610e67575f5ffd5b610e76886020838a0101610baf565b84525060209283019201610e4a565b5f60208284031215610e95575f5ffd5b81516001600160401b03811115610eaa575f5ffd5b82016101408185031215610ebc575f5ffd5b610ec4610a2a565b610ecd82610c1a565b8152610edb60208301610c1a565b6020820152610eec60408301610c1a565b6040820152610efd60608301610c1a565b6060820152610f0e60808301610a7d565b6080820152610f1f60a08301610c1a565b60a0820152610f3060c08301610df7565b60c0820152610f4160e08301610a98565b60e08201526101008201516001600160401b03811115610f5f575f5ffd5b610f6b86828501610e07565b610100830152506101208201516001600160401b03811115610f8b575f5ffd5b610f9786828501610baf565b61012083015250949350505050565b5f60208284031215610fb6575f5ffd5b81516001600160401b03811115610fcb575f5ffd5b820160608185031215610fdc575f5ffd5b610fe4610a02565b8151815260208201516001600160401b03811115611000575f5ffd5b8201601f81018613611010575f5ffd5b805161101e610b5882610b19565b8082825260208201915060208360051b85010192508883111561103f575f5ffd5b6020840193505b82841015611061578351825260209384019390910190611046565b60208501525061107691505060408301610a98565b6040820152949350505050565b5f5f60408385031215611094575f5ffd5b825191506110a460208401610a98565b90509250929050565b60ff82811682821603908111156109e8576109e8610d7a565b6001600160a01b038181168382168181029092169181830481148215176110ef576110ef610d7a565b505092915050565b6001600160a01b0381811683821601908111156109e8576109e8610d7a56fe';

/**
 * The reader's constructor arguments as ABI types, in order: what every SBT
 * read needs (the hub, the action id, the zk-passport circuit), the circuits
 * asked, the voters packed, where clean hands lives, and the attestations
 * asked packed. ethers' `defaultAbiCoder.encode(readerArgs, values)` and viem's
 * `encodeAbiParameters(parseAbiParameters(readerArgs.join(', ')), values)`
 * read them alike; {@link readerValues} gives the values.
 */
export const readerArgs: readonly string[] = [
  '(address,uint256,(bytes32,uint256,address,bool))',
  '(bytes32,uint256,address,bool)[]',
  'bytes',
  '(address,uint64,address)',
  'bytes'
];

/** The zero address: no permanent store, no Sign Protocol (sandbox). */
export const readerZeroAddress = '0x0000000000000000000000000000000000000000';

/** The SBT credentials the reader reads (clean hands is read by attestation). */
export type ReaderCredential = 'gov-id' | 'phone' | 'biometrics';

/**
 * One call's limits: a node refuses a contract creation over 49,152 bytes
 * (`input`) or returning over 24,576 (`bytes`); a call is planned under 45M
 * gas (geth's eth_call cap is 50M), of which `call` for the call itself. At
 * most `parallel` calls go out at once: a node runs calls of tens of millions
 * of gas one after another, and snapshot.js's provider gives each 25 s.
 */
export const readerLimits = {
  bytes: 24576,
  input: 49152,
  gas: 45000000,
  call: 300000,
  parallel: 3
};

/**
 * Planned gas per voter and credential, and per attestation: the dearer of
 * holding a valid SBT and holding none, measured on the local chain
 * (bench/human-id-reader.ts), and a twentieth more. A voter whose SBT getSBT
 * returns but fails costs more (every fallback runs): a chunk of mostly such
 * voters can run out of gas, and is then read again in two halves.
 */
export const readerGas: Readonly<
  Record<ReaderCredential | 'attestation', number>
> = {
  'gov-id': 34000,
  phone: 24000,
  biometrics: 24000,
  attestation: 51000
};

/** Bytes of the answer's head: block.timestamp, block.number, block.chainid. */
const HEAD = 96;
/** Bytes of one attestation asked, sent (id and voter) and returned. */
const PAIR_SENT = 10;
const PAIR_RETURNED = 1;
/** Bytes of the arguments besides the voters and attestations, at most. */
const ARGS = 1024;

/**
 * Voters read by one call, and the attestations asked for them (id, voter),
 * with the plan: gas, bytes sent and bytes returned.
 */
export type ReaderChunk = {
  voters: string[];
  pairs: Array<[bigint, string]>;
  gas: number;
  input: number;
  bytes: number;
};

function sbtsOf(credentials: readonly string[]): ReaderCredential[] {
  return credentials.filter(
    (credential): credential is ReaderCredential => credential !== 'clean-hands'
  );
}

/** Bytes of one voter's records in the answer, for the credentials asked. */
export function readerVoterBytes(credentials: readonly string[]): number {
  return sbtsOf(credentials).reduce(
    (sum, credential) => sum + (credential === 'gov-id' ? 4 : 2),
    0
  );
}

/** A chunk of these voters and attestations, with its plan. */
export function planReaderChunk(
  credentials: readonly string[],
  voters: string[],
  pairs: Array<[bigint, string]>
): ReaderChunk {
  return { voters, pairs, ...plan(credentials, voters.length, pairs.length) };
}

function plan(credentials: readonly string[], voters: number, pairs: number) {
  const gas = sbtsOf(credentials).reduce(
    (sum, credential) => sum + readerGas[credential],
    0
  );
  return {
    gas: readerLimits.call + voters * gas + pairs * readerGas.attestation,
    input: readerCode.length / 2 + ARGS + voters * 20 + pairs * PAIR_SENT,
    bytes: HEAD + voters * readerVoterBytes(credentials) + pairs * PAIR_RETURNED
  };
}

/**
 * The voters cut into chunks, in order, each within one call's limits (a
 * voter whose attestations alone are over them gets a chunk of its own), with
 * the attestations asked for each voter (`attestations(voter)`, each id once).
 */
export function planReaderChunks(
  credentials: readonly string[],
  voters: readonly string[],
  attestations: (voter: string) => readonly bigint[]
): ReaderChunk[] {
  const chunks: ReaderChunk[] = [];
  let chunk = planReaderChunk(credentials, [], []);
  for (const voter of voters) {
    const mine = Array.from(new Set(attestations(voter)));
    const next = plan(
      credentials,
      chunk.voters.length + 1,
      chunk.pairs.length + mine.length
    );
    if (
      chunk.voters.length > 0 &&
      (next.bytes > readerLimits.bytes ||
        next.input > readerLimits.input ||
        next.gas > readerLimits.gas)
    ) {
      chunks.push(chunk);
      chunk = planReaderChunk(credentials, [], []);
    }
    chunk.voters.push(voter);
    for (const id of mine) chunk.pairs.push([id, voter]);
    Object.assign(
      chunk,
      plan(credentials, chunk.voters.length, chunk.pairs.length)
    );
  }
  chunks.push(chunk);
  return chunks;
}

/** A chunk cut in two halves of its voters, each with its attestations. */
export function halveReaderChunk(
  credentials: readonly string[],
  chunk: ReaderChunk
): [ReaderChunk, ReaderChunk] {
  const middle = Math.ceil(chunk.voters.length / 2);
  const half = (voters: string[]) => {
    const mine = new Set(voters);
    const pairs = chunk.pairs.filter(pair => mine.has(pair[1]));
    return planReaderChunk(credentials, voters, pairs);
  };
  return [
    half(chunk.voters.slice(0, middle)),
    half(chunk.voters.slice(middle))
  ];
}

/**
 * The answers of a chunk's two halves ({@link halveReaderChunk}) as the
 * answer of the whole chunk: the first half's head, then the voters' records
 * of both, then their attestations'.
 */
export function joinReaderHalves(
  credentials: readonly string[],
  halves: [ReaderChunk, ReaderChunk],
  answers: [string, string]
): string {
  const head = 2 + 2 * HEAD;
  const cut = (half: ReaderChunk, data: string) => {
    const end = head + 2 * half.voters.length * readerVoterBytes(credentials);
    return { records: data.slice(head, end), pairs: data.slice(end) };
  };
  const [a, b] = [cut(halves[0], answers[0]), cut(halves[1], answers[1])];
  return answers[0].slice(0, head) + a.records + b.records + a.pairs + b.pairs;
}

/** What the reader is asked besides the voters: where, and what to compare. */
export type ReaderAsk = {
  /** The Human ID Hub. */
  hub: string;
  actionId: bigint;
  /** The SBT credentials asked, in order: circuit id, issuer, permanent store (zero for none). */
  circuits: Array<{
    credential: string;
    circuitId: string;
    issuer: bigint;
    store: string;
  }>;
  /** The zk-passport circuit, which stands in for gov-id. */
  passport: { circuitId: string; issuer: bigint };
  /** Sign Protocol (zero when no clean hands is asked), the schema id and attester of clean hands. */
  signProtocol: string;
  schemaId: bigint;
  attester: string;
};

function hex(value: bigint | number, bytes: number): string {
  return value.toString(16).padStart(2 * bytes, '0');
}

/** The constructor's argument values for a chunk, in {@link readerArgs}' order. */
export function readerValues(ask: ReaderAsk, chunk: ReaderChunk): unknown[] {
  const position = new Map(chunk.voters.map((voter, index) => [voter, index]));
  return [
    [
      ask.hub,
      ask.actionId,
      [ask.passport.circuitId, ask.passport.issuer, readerZeroAddress, false]
    ],
    ask.circuits.map(circuit => [
      circuit.circuitId,
      circuit.issuer,
      circuit.store,
      circuit.credential === 'gov-id'
    ]),
    `0x${chunk.voters.map(voter => voter.slice(2)).join('')}`,
    [ask.signProtocol, ask.schemaId, ask.attester],
    `0x${chunk.pairs
      .map(([id, voter]) => hex(id, 8) + hex(position.get(voter) as number, 2))
      .join('')}`
  ];
}

function word(data: string, index: number): number {
  return Number(BigInt(`0x${data.slice(2 + index * 64, 66 + index * 64)}`));
}

function bits(data: string, at: number, size: number): number {
  return parseInt(data.slice(2 + at * 2, 2 + (at + size) * 2), 16);
}

/** The block the reader ran at, from the head of its answer. */
export function readerBlock(data: string): {
  timestamp: number;
  number: number;
  chainId: number;
} {
  return {
    timestamp: word(data, 0),
    number: word(data, 1),
    chainId: word(data, 2)
  };
}

/**
 * One SBT record's flags (reader.sol): 1 read, 2 getSBT succeeded, 4 revoked,
 * 8 expiry before block.timestamp, 16 (getSBT) five public values or more /
 * (sbtOwners) expiry 0, 32 publicValues[4] is the issuer, 64 publicValues[2]
 * is the action id, 128 publicValues[1] is the voter, 256 permanent store
 * read, 512 the store says unique. 0: not read.
 */
export type ReaderSbt = { flags: number };

/** What the reader answered for one voter. */
export type ReaderVoter = {
  voter: string;
  /** Per SBT credential asked: its own SBT, and for gov-id the zk-passport SBT. */
  credentials: Partial<
    Record<ReaderCredential, { primary: ReaderSbt; passport?: ReaderSbt }>
  >;
  /**
   * Per attestation asked for the voter, its flags: 1 exists, 2 schema id as
   * expected, 4 attester as expected, 8 revoked, 16 validUntil after
   * block.timestamp, 32 recipients[0] is the ABI string of the voter, 64
   * recipients[0] is not an ABI string at offset 32.
   */
  attestations: Map<bigint, number>;
};

/** A chunk's answer, voter by voter, in the chunk's order. */
export function readerVoters(
  credentials: readonly string[],
  chunk: ReaderChunk,
  data: string
): ReaderVoter[] {
  const sbts = sbtsOf(credentials);
  const pairsAt = HEAD + chunk.voters.length * readerVoterBytes(credentials);
  const byVoter = new Map<string, Map<bigint, number>>(
    chunk.voters.map(voter => [voter, new Map()])
  );
  chunk.pairs.forEach(([id, voter], index) => {
    (byVoter.get(voter) as Map<bigint, number>).set(
      id,
      bits(data, pairsAt + index * PAIR_RETURNED, PAIR_RETURNED)
    );
  });
  let at = HEAD;
  return chunk.voters.map(voter => {
    const read: ReaderVoter['credentials'] = {};
    for (const credential of sbts) {
      const primary = { flags: bits(data, at, 2) };
      at += 2;
      if (credential === 'gov-id') {
        read[credential] = { primary, passport: { flags: bits(data, at, 2) } };
        at += 2;
      } else {
        read[credential] = { primary };
      }
    }
    return {
      voter,
      credentials: read,
      attestations: byVoter.get(voter) as Map<bigint, number>
    };
  });
}

/** The permanent store's answer in an SBT record: undefined when not read. */
export function readerStore(sbt: ReaderSbt): boolean | undefined {
  return sbt.flags & 256 ? (sbt.flags & 512) !== 0 : undefined;
}

/**
 * An SBT record as classifySbt (./rules.ts) reads it, judged at `at` (the
 * block's timestamp). The reader compared the values with the expected ones;
 * the values below stand for those comparisons. Undefined when the SBT was
 * not read.
 */
export function readerSbtReads(
  sbt: ReaderSbt,
  at: bigint,
  voter: string,
  expected: { actionId: bigint; issuer: bigint }
):
  | {
      getSBT:
        | {
            status: 'success';
            expiry: bigint;
            publicValues: bigint[];
            revoked: boolean;
          }
        | { status: 'reverted' };
      sbtOwners?: { expiry: bigint; revoked: boolean };
    }
  | undefined {
  const { flags } = sbt;
  if (!(flags & 1)) return undefined;
  const expiry = flags & 8 ? at - 1n : at;
  const revoked = (flags & 4) !== 0;
  if (flags & 2) {
    const recipient = BigInt(voter);
    const values =
      flags & 16
        ? [
            0n,
            flags & 128 ? recipient : recipient + 1n,
            flags & 64 ? expected.actionId : expected.actionId + 1n,
            0n,
            flags & 32 ? expected.issuer : expected.issuer + 1n
          ]
        : [];
    return {
      getSBT: { status: 'success', expiry, publicValues: values, revoked }
    };
  }
  return {
    getSBT: { status: 'reverted' },
    sbtOwners: { expiry: flags & 16 ? 0n : expiry, revoked }
  };
}

/**
 * An attestation's flags as checkOnchainCleanHandsAttestation (./rules.ts)
 * reads them, for `voter` at `at` (the block's timestamp): the attestation
 * (values standing for the reader's comparisons) and how to decode its
 * recipient. Undefined when recipients[0] is not an ABI string at offset 32
 * (an ABI decoder would follow the offset, the reader does not: do not guess).
 */
export function readerAttestationReads(
  flags: number,
  at: bigint,
  voter: string,
  expected: { schemaId: bigint; attester: string }
):
  | {
      attestation: {
        schemaId: bigint;
        attestTimestamp: bigint;
        attester: string;
        validUntil: bigint;
        revoked: boolean;
        recipients: string[];
      };
      address: string;
      blockTimestamp: bigint;
      decodeRecipient: () => string | undefined;
    }
  | undefined {
  if (flags & 64) return undefined;
  return {
    attestation: {
      schemaId: flags & 2 ? expected.schemaId : expected.schemaId + 1n,
      attestTimestamp: flags & 1 ? 1n : 0n,
      attester: flags & 4 ? expected.attester : readerZeroAddress,
      validUntil: flags & 16 ? at + 1n : at,
      revoked: (flags & 8) !== 0,
      recipients: ['0x']
    },
    address: voter,
    blockTimestamp: at,
    decodeRecipient: () => (flags & 32 ? voter : undefined)
  };
}
