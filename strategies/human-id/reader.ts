// Generated from personhood src/rules/reader.ts
// by `npm run strategies:rules`. Do not edit: change the source and run the
// command again. The library, its reference server and this folder decide with
// this same code, and a test fails when this copy differs from its source.

/**
 * The protocol of the human-id deployless reader (strategies/human-id/reader.sol) in one
 * dependency-free module: its creation code, the layout of its arguments, how voters are cut into
 * calls, and its packed answer decoded into the inputs of the rules (./sbt.ts, ./clean-hands.ts). It reads nothing
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
  '0x608060405234801561000f575f5ffd5b506040516112a93803806112a983398101604081905261002e91610dfd565b5f856060015161003f576002610042565b60085b60ff1690505f805b865181101561009a5786818151811061006557610065610ef8565b60200260200101516060015161007b5782610086565b610086836002610f20565b6100909083610f37565b915060010161004a565b505f601486516100aa9190610f4a565b90505f600a85516100bb9190610f4a565b90505f89606001516100ce5760016100d1565b60075b60ff1690505f6100e18284610f20565b6100eb8686610f20565b6100f6906060610f37565b6101009190610f37565b6001600160401b0381111561011757610117610b6e565b6040519080825280601f01601f191660200182016040528015610141576020820181803683370190505b5042602082015243604082015246606082015290505f610163828d8d8d61017b565b90506101738282858c8e8d6101ff565b815160208301f35b6040516060905f5b601484516101919190610f4a565b8110156101f5575f6101a385836102e6565b90505f5b86518110156101eb576101dc89868a8a85815181106101c8576101c8610ef8565b60200260200101518661034760201b60201c565b604085905294506001016101a7565b5050600101610183565b5050949350505050565b6040515f5b600a83516102129190610f4a565b8110156102dc57600a810283016020015160c081901c9060b01c61ffff165f61023b87836102e6565b90505f8061024a8a86856104df565b915091508160f81b8d8c8861025f9190610f20565b610269908f610f37565b8151811061027957610279610ef8565b60200101906001600160f81b03191690815f1a90535060018b11156102ca576102ca8d6102a68d89610f20565b6102b0908f610f37565b6102bb906001610f37565b6001600160401b038416610657565b50505060408490525050600101610204565b5050505050505050565b5f601483516102f59190610f4a565b82106103385760405162461bcd60e51b815260206004820152600d60248201526c37379039bab1b4103b37ba32b960991b60448201526064015b60405180910390fd5b50601402016020015160601c90565b5f8080806103568787876106d6565b9250925092505f8890505f8860600151610371576002610374565b60085b60ff169050610383818b610f37565b99508760600151156103ed575f5f856103b4576103ab8b8c604001518b6106d660201b60201c565b90975090925090505b6103bf8d8d8461090e565b8a60600151156103de576103de8d6103d88e6002610f37565b83610657565b6103e8838d610f37565b9b5050505b83158015610407575060408801516001600160a01b031615155b156104a65760408089015160208b01519151634b12468960e11b81526001600160a01b038a8116600483015260248201939093525f92909116906396248d1290604401602060405180830381865afa158015610465573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906104899190610f69565b9050806104985761010061049c565b6103005b61ffff1686179550505b6104b18b838761090e565b8860600151156104d0576104d08b6104ca846002610f37565b85610657565b50979998505050505050505050565b825160405162c44a5160e71b81526001600160401b03841660048201525f91829182916001600160a01b0316906362252880906024015f60405180830381865afa15801561052f573d5f5f3e3d5ffd5b505050506040513d5f823e601f3d908101601f191682016040526105569190810190611017565b90508060a00151915080604001516001600160401b03165f141580610587575060808101516001600160a01b031615155b15610593576001831792505b85602001516001600160401b0316815f01516001600160401b0316036105ba576002831792505b85604001516001600160a01b031681608001516001600160a01b0316036105e2576004831792505b8060e00151156105f3576008831792505b428160a001516001600160401b0316111561060f576010831792505b610100810151511561064e576106498161010001515f8151811061063557610635610ef8565b60200260200101518561097a60201b60201c565b831792505b50935093915050565b8251610664836006610f37565b11156106a15760405162461bcd60e51b815260206004820152600c60248201526b6f7574206f662072616e676560a01b604482015260640161032f565b65ffffffffffff8111156106b8575065ffffffffffff5b910160200180516001600160d01b031660d09290921b919091179052565b82518251604051636f8a8c6960e01b81526001600160a01b03848116600483015260248201929092525f9283928392911690636f8a8c69906044015f60405180830381865afa92505050801561074d57506040513d5f823e601f3d908101601f1916820160405261074a9190810190611138565b60015b61083457855185516040516001600160601b0319606088901b16602082015260348101919091525f916001600160a01b0316906335abf9c990605401604051602081830303815290604052805190602001206040518263ffffffff1660e01b81526004016107bd91815260200190565b6040805180830381865afa1580156107d7573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906107fb9190611215565b6001955090925090508015610811576004841793505b42821015610820576008841793505b815f0361082e576010841793505b50610905565b6020810151815160408301516003965090935015610853576004851794505b8151421115610863576008851794505b6004815111156108fc5760108517945086602001518160048151811061088b5761088b610ef8565b60200260200101510361089f576020851794505b8760200151816002815181106108b7576108b7610ef8565b6020026020010151036108cb576040851794505b856001600160a01b0316816001815181106108e8576108e8610ef8565b6020026020010151036108fc576080851794505b8460f314935050505b93509350939050565b600881901c60f81b83838151811061092857610928610ef8565b60200101906001600160f81b03191690815f1a90535060f881901b8361094f846001610f37565b8151811061095f5761095f610ef8565b60200101906001600160f81b03191690815f1a905350505050565b5f60408351101561098c57505f610b68565b6020838101516040850151909182146109aa57604092505050610b68565b80602a1415806109bb5750606a8551105b156109ca575f92505050610b68565b846040815181106109dd576109dd610ef8565b6020910101516001600160f81b031916600360fc1b141580610a56575084604181518110610a0d57610a0d610ef8565b6020910101516001600160f81b031916600f60fb1b14801590610a56575084604181518110610a3e57610a3e610ef8565b6020910101516001600160f81b031916600b60fb1b14155b15610a65575f92505050610b68565b5f60425b606a811015610b3f575f878281518110610a8557610a85610ef8565b016020015160f81c90505f60308210801590610aa5575060398260ff1611155b15610abc57610ab560308361123f565b9050610b1a565b60618260ff1610158015610ad4575060668260ff1611155b15610ae457610ab560578361123f565b60418260ff1610158015610afc575060468260ff1611155b15610b0c57610ab560378361123f565b5f9650505050505050610b68565b60ff8116610b29856010611258565b610b339190611289565b93505050600101610a69565b50846001600160a01b0316816001600160a01b031614610b5f575f610b62565b60205b93505050505b92915050565b634e487b7160e01b5f52604160045260245ffd5b604051608081016001600160401b0381118282101715610ba457610ba4610b6e565b60405290565b604051606081016001600160401b0381118282101715610ba457610ba4610b6e565b60405161014081016001600160401b0381118282101715610ba457610ba4610b6e565b604051601f8201601f191681016001600160401b0381118282101715610c1757610c17610b6e565b604052919050565b80516001600160a01b0381168114610c35575f5ffd5b919050565b80518015158114610c35575f5ffd5b5f60808284031215610c59575f5ffd5b610c61610b82565b82518152602080840151908201529050610c7d60408301610c1f565b6040820152610c8e60608301610c3a565b606082015292915050565b5f6001600160401b03821115610cb157610cb1610b6e565b5060051b60200190565b5f82601f830112610cca575f5ffd5b8151610cdd610cd882610c99565b610bef565b8082825260208201915060208360071b860101925085831115610cfe575f5ffd5b602085015b83811015610d2557610d158782610c49565b8352602090920191608001610d03565b5095945050505050565b5f82601f830112610d3e575f5ffd5b81516001600160401b03811115610d5757610d57610b6e565b610d6a601f8201601f1916602001610bef565b818152846020838601011115610d7e575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b80516001600160401b0381168114610c35575f5ffd5b5f60608284031215610dc0575f5ffd5b610dc8610baa565b9050610dd382610c1f565b8152610de160208301610d9a565b6020820152610df260408301610c1f565b604082015292915050565b5f5f5f5f5f8587036101a0811215610e13575f5ffd5b60e0811215610e20575f5ffd5b50610e29610b82565b610e3287610c1f565b815260208781015190820152610e4b8860408901610c49565b6040820152610e5c60c08801610c3a565b606082015260e08701519095506001600160401b03811115610e7c575f5ffd5b610e8888828901610cbb565b61010088015190955090506001600160401b03811115610ea6575f5ffd5b610eb288828901610d2f565b935050610ec3876101208801610db0565b6101808701519092506001600160401b03811115610edf575f5ffd5b610eeb88828901610d2f565b9150509295509295909350565b634e487b7160e01b5f52603260045260245ffd5b634e487b7160e01b5f52601160045260245ffd5b8082028115828204841417610b6857610b68610f0c565b80820180821115610b6857610b68610f0c565b5f82610f6457634e487b7160e01b5f52601260045260245ffd5b500490565b5f60208284031215610f79575f5ffd5b610f8282610c3a565b9392505050565b805160ff81168114610c35575f5ffd5b5f82601f830112610fa8575f5ffd5b8151610fb6610cd882610c99565b8082825260208201915060208360051b860101925085831115610fd7575f5ffd5b602085015b83811015610d255780516001600160401b03811115610ff9575f5ffd5b611008886020838a0101610d2f565b84525060209283019201610fdc565b5f60208284031215611027575f5ffd5b81516001600160401b0381111561103c575f5ffd5b8201610140818503121561104e575f5ffd5b611056610bcc565b61105f82610d9a565b815261106d60208301610d9a565b602082015261107e60408301610d9a565b604082015261108f60608301610d9a565b60608201526110a060808301610c1f565b60808201526110b160a08301610d9a565b60a08201526110c260c08301610f89565b60c08201526110d360e08301610c3a565b60e08201526101008201516001600160401b038111156110f1575f5ffd5b6110fd86828501610f99565b610100830152506101208201516001600160401b0381111561111d575f5ffd5b61112986828501610d2f565b61012083015250949350505050565b5f60208284031215611148575f5ffd5b81516001600160401b0381111561115d575f5ffd5b82016060818503121561116e575f5ffd5b611176610baa565b8151815260208201516001600160401b03811115611192575f5ffd5b8201601f810186136111a2575f5ffd5b80516111b0610cd882610c99565b8082825260208201915060208360051b8501019250888311156111d1575f5ffd5b6020840193505b828410156111f35783518252602093840193909101906111d8565b60208501525061120891505060408301610c3a565b6040820152949350505050565b5f5f60408385031215611226575f5ffd5b8251915061123660208401610c3a565b90509250929050565b60ff8281168282160390811115610b6857610b68610f0c565b6001600160a01b0381811683821681810290921691818304811482151761128157611281610f0c565b505092915050565b6001600160a01b038181168382160190811115610b6857610b68610f0c56fe';

/**
 * The reader's constructor arguments as ABI types, in order: what every SBT
 * read needs (the hub, the action id, the zk-passport circuit, whether to
 * return expiries), the circuits asked, the voters packed, where clean hands
 * lives, and the attestations asked packed. ethers'
 * `defaultAbiCoder.encode(readerArgs, values)` and viem's
 * `encodeAbiParameters(parseAbiParameters(readerArgs.join(', ')), values)`
 * read them alike; {@link readerValues} gives the values.
 */
export const readerArgs: readonly string[] = [
  '(address,uint256,(bytes32,uint256,address,bool),bool)',
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
 * What each voter's answer holds: the credentials asked (gov-id, phone,
 * biometrics, clean-hands), and whether with each SBT's expiry and each
 * attestation's validUntil (6 bytes each: at 200 gas a returned byte, about
 * 1,500 gas more per SBT record; a caller that only scores leaves them off).
 */
export type ReaderLayout = {
  credentials: readonly string[];
  expiries?: boolean | undefined;
};

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
 * (bench/human-id-reader.ts), and a twentieth more; with expiries, `expiry`
 * more per SBT record (gov-id has two: its own and the zk-passport SBT's) and
 * `validUntil` more per attestation. A voter whose SBT getSBT returns but
 * fails costs more (every fallback runs): a chunk of mostly such voters can
 * run out of gas, and is then read again in two halves.
 */
export const readerGas: Readonly<
  Record<ReaderCredential | 'attestation' | 'expiry' | 'validUntil', number>
> = {
  'gov-id': 34000,
  phone: 24000,
  biometrics: 24000,
  attestation: 51000,
  expiry: 1600,
  validUntil: 2000
};

/** Bytes of the answer's head: block.timestamp, block.number, block.chainid. */
const HEAD = 96;
/** Bytes of one attestation asked, sent (id and voter position). */
const PAIR_SENT = 10;
/** Bytes of the arguments besides the voters and attestations, at most. */
const ARGS = 1024;

/** Bytes of one SBT record: flags, and the expiry when asked. */
function sbtBytes(layout: ReaderLayout): number {
  return layout.expiries ? 8 : 2;
}

/** Bytes of one attestation's answer: flags, and validUntil when asked. */
function pairBytes(layout: ReaderLayout): number {
  return layout.expiries ? 7 : 1;
}

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

function sbtsOf(layout: ReaderLayout): ReaderCredential[] {
  return layout.credentials.filter(
    (credential): credential is ReaderCredential => credential !== 'clean-hands'
  );
}

/** SBT records of one voter: one per credential, two for gov-id. */
function records(layout: ReaderLayout): number {
  return sbtsOf(layout).reduce(
    (sum, credential) => sum + (credential === 'gov-id' ? 2 : 1),
    0
  );
}

/** Bytes of one voter's records in the answer. */
export function readerVoterBytes(layout: ReaderLayout): number {
  return records(layout) * sbtBytes(layout);
}

/** A chunk of these voters and attestations, with its plan. */
export function planReaderChunk(
  layout: ReaderLayout,
  voters: string[],
  pairs: Array<[bigint, string]>
): ReaderChunk {
  return { voters, pairs, ...plan(layout, voters.length, pairs.length) };
}

function plan(layout: ReaderLayout, voters: number, pairs: number) {
  const expiries = layout.expiries === true;
  const perVoter =
    sbtsOf(layout).reduce((sum, credential) => sum + readerGas[credential], 0) +
    (expiries ? records(layout) * readerGas.expiry : 0);
  const perPair = readerGas.attestation + (expiries ? readerGas.validUntil : 0);
  return {
    gas: readerLimits.call + voters * perVoter + pairs * perPair,
    input: readerCode.length / 2 + ARGS + voters * 20 + pairs * PAIR_SENT,
    bytes: HEAD + voters * readerVoterBytes(layout) + pairs * pairBytes(layout)
  };
}

/**
 * The voters cut into chunks, in order, each within one call's limits (a
 * voter whose attestations alone are over them gets a chunk of its own), with
 * the attestations asked for each voter (`attestations(voter)`, each id once).
 */
export function planReaderChunks(
  layout: ReaderLayout,
  voters: readonly string[],
  attestations: (voter: string) => readonly bigint[]
): ReaderChunk[] {
  const chunks: ReaderChunk[] = [];
  let chunk = planReaderChunk(layout, [], []);
  for (const voter of voters) {
    const mine = Array.from(new Set(attestations(voter)));
    const next = plan(
      layout,
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
      chunk = planReaderChunk(layout, [], []);
    }
    chunk.voters.push(voter);
    for (const id of mine) chunk.pairs.push([id, voter]);
    Object.assign(chunk, plan(layout, chunk.voters.length, chunk.pairs.length));
  }
  chunks.push(chunk);
  return chunks;
}

/** A chunk cut in two halves of its voters, each with its attestations. */
export function halveReaderChunk(
  layout: ReaderLayout,
  chunk: ReaderChunk
): [ReaderChunk, ReaderChunk] {
  const middle = Math.ceil(chunk.voters.length / 2);
  const half = (voters: string[]) => {
    const mine = new Set(voters);
    const pairs = chunk.pairs.filter(pair => mine.has(pair[1]));
    return planReaderChunk(layout, voters, pairs);
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
  layout: ReaderLayout,
  halves: [ReaderChunk, ReaderChunk],
  answers: [string, string]
): string {
  const head = 2 + 2 * HEAD;
  const cut = (half: ReaderChunk, data: string) => {
    const end = head + 2 * half.voters.length * readerVoterBytes(layout);
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
export function readerValues(
  layout: ReaderLayout,
  ask: ReaderAsk,
  chunk: ReaderChunk
): unknown[] {
  const position = new Map(chunk.voters.map((voter, index) => [voter, index]));
  return [
    [
      ask.hub,
      ask.actionId,
      [ask.passport.circuitId, ask.passport.issuer, readerZeroAddress, false],
      layout.expiries === true
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
 * One SBT record. `flags` (reader.sol): 1 read, 2 getSBT succeeded, 4
 * revoked, 8 expiry before block.timestamp, 16 (getSBT) five public values or
 * more / (sbtOwners) expiry 0, 32 publicValues[4] is the issuer, 64
 * publicValues[2] is the action id, 128 publicValues[1] is the voter, 256
 * permanent store read, 512 the store says unique; 0: not read. `expiry`
 * (with expiries): getSBT's, else sbtOwners', at most 2^48 - 1 (a later one
 * reads as that).
 */
export type ReaderSbt = { flags: number; expiry?: bigint | undefined };

/**
 * One attestation asked. `flags`: 1 exists, 2 schema id as expected, 4
 * attester as expected, 8 revoked, 16 validUntil after block.timestamp, 32
 * recipients[0] is the ABI string of the voter, 64 recipients[0] is not an
 * ABI string at offset 32. `validUntil` (with expiries): at most 2^48 - 1.
 */
export type ReaderAttestation = {
  flags: number;
  validUntil?: bigint | undefined;
};

/** What the reader answered for one voter. */
export type ReaderVoter = {
  voter: string;
  /** Per SBT credential asked: its own SBT, and for gov-id the zk-passport SBT. */
  credentials: Partial<
    Record<ReaderCredential, { primary: ReaderSbt; passport?: ReaderSbt }>
  >;
  /** Per attestation id asked for the voter. */
  attestations: Map<bigint, ReaderAttestation>;
};

/** `size` bytes at byte `at` of the answer, as a number and, past the first `flags` bytes, a bigint. */
function recordAt(data: string, at: number, flags: number, size: number) {
  const digits = data.slice(2 + at * 2, 2 + (at + size) * 2);
  return {
    flags: parseInt(digits.slice(0, 2 * flags), 16),
    value: size > flags ? BigInt(`0x${digits.slice(2 * flags)}`) : undefined
  };
}

/** A chunk's answer, voter by voter, in the chunk's order. */
export function readerVoters(
  layout: ReaderLayout,
  chunk: ReaderChunk,
  data: string
): ReaderVoter[] {
  const [sbt, pair] = [sbtBytes(layout), pairBytes(layout)];
  const pairsAt = HEAD + chunk.voters.length * readerVoterBytes(layout);
  const byVoter = new Map<string, Map<bigint, ReaderAttestation>>(
    chunk.voters.map(voter => [voter, new Map()])
  );
  chunk.pairs.forEach(([id, voter], index) => {
    const read = recordAt(data, pairsAt + index * pair, 1, pair);
    (byVoter.get(voter) as Map<bigint, ReaderAttestation>).set(id, {
      flags: read.flags,
      validUntil: read.value
    });
  });
  let at = HEAD;
  const next = (): ReaderSbt => {
    const read = recordAt(data, at, 2, sbt);
    at += sbt;
    return { flags: read.flags, expiry: read.value };
  };
  return chunk.voters.map(voter => {
    const read: ReaderVoter['credentials'] = {};
    for (const credential of sbtsOf(layout)) {
      const primary = next();
      read[credential] =
        credential === 'gov-id' ? { primary, passport: next() } : { primary };
    }
    return {
      voter,
      credentials: read,
      attestations: byVoter.get(voter) as Map<bigint, ReaderAttestation>
    };
  });
}

/** The permanent store's answer in an SBT record: undefined when not read. */
export function readerStore(sbt: ReaderSbt): boolean | undefined {
  return sbt.flags & 256 ? (sbt.flags & 512) !== 0 : undefined;
}

/**
 * An SBT record as classifySbt (./sbt.ts) reads it at `at` (the block's
 * timestamp): undefined when the SBT was not read. The reader compared the
 * public values with the expected ones, and without expiries the expiry with
 * `at`; the values below stand for those comparisons.
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
  const revoked = (flags & 4) !== 0;
  const standIn = flags & 8 ? at - 1n : at;
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
    const expiry = sbt.expiry ?? standIn;
    return {
      getSBT: { status: 'success', expiry, publicValues: values, revoked }
    };
  }
  const expiry = sbt.expiry ?? (flags & 16 ? 0n : standIn);
  return { getSBT: { status: 'reverted' }, sbtOwners: { expiry, revoked } };
}

/**
 * An attestation as checkOnchainCleanHandsAttestation (./clean-hands.ts) reads it,
 * for `voter` at `at` (the block's timestamp): the attestation (values
 * standing for the reader's comparisons) and how to decode its recipient.
 * Undefined when recipients[0] is not an ABI string at offset 32 (an ABI
 * decoder would follow the offset, the reader does not: do not guess).
 */
export function readerAttestationReads(
  attestation: ReaderAttestation,
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
  const { flags } = attestation;
  if (flags & 64) return undefined;
  return {
    attestation: {
      schemaId: flags & 2 ? expected.schemaId : expected.schemaId + 1n,
      attestTimestamp: flags & 1 ? 1n : 0n,
      attester: flags & 4 ? expected.attester : readerZeroAddress,
      validUntil: attestation.validUntil ?? (flags & 16 ? at + 1n : at),
      revoked: (flags & 8) !== 0,
      recipients: ['0x']
    },
    address: voter,
    blockTimestamp: at,
    decodeRecipient: () => (flags & 32 ? voter : undefined)
  };
}
