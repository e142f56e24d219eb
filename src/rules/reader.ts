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
  '0x608060405234801561000f575f5ffd5b506040516112b33803806112b383398101604081905261002e91610e07565b5f856060015161003f576002610042565b60085b60ff1690505f805b865181101561009a5786818151811061006557610065610f02565b60200260200101516060015161007b5782610086565b610086836002610f2a565b6100909083610f41565b915060010161004a565b505f601486516100aa9190610f54565b90505f600a85516100bb9190610f54565b90505f89606001516100ce5760016100d1565b60075b60ff1690505f6100e18284610f2a565b6100eb8686610f2a565b6100f6906060610f41565b6101009190610f41565b6001600160401b0381111561011757610117610b78565b6040519080825280601f01601f191660200182016040528015610141576020820181803683370190505b5042602082015243604082015246606082015290505f610163828d8d8d61017b565b90506101738282858c8e8d6101ff565b815160208301f35b6040516060905f5b601484516101919190610f54565b8110156101f5575f6101a385836102e6565b90505f5b86518110156101eb576101dc89868a8a85815181106101c8576101c8610f02565b60200260200101518661034760201b60201c565b604085905294506001016101a7565b5050600101610183565b5050949350505050565b6040515f5b600a83516102129190610f54565b8110156102dc57600a810283016020015160c081901c9060b01c61ffff165f61023b87836102e6565b90505f8061024a8a86856104df565b915091508160f81b8d8c8861025f9190610f2a565b610269908f610f41565b8151811061027957610279610f02565b60200101906001600160f81b03191690815f1a90535060018b11156102ca576102ca8d6102a68d89610f2a565b6102b0908f610f41565b6102bb906001610f41565b6001600160401b03841661065e565b50505060408490525050600101610204565b5050505050505050565b5f601483516102f59190610f54565b82106103385760405162461bcd60e51b815260206004820152600d60248201526c37379039bab1b4103b37ba32b960991b60448201526064015b60405180910390fd5b50601402016020015160601c90565b5f8080806103568787876106dd565b9250925092505f8890505f8860600151610371576002610374565b60085b60ff169050610383818b610f41565b99508760600151156103ed575f5f856103b4576103ab8b8c604001518b6106dd60201b60201c565b90975090925090505b6103bf8d8d84610918565b8a60600151156103de576103de8d6103d88e6002610f41565b8361065e565b6103e8838d610f41565b9b5050505b83158015610407575060408801516001600160a01b031615155b156104a65760408089015160208b01519151634b12468960e11b81526001600160a01b038a8116600483015260248201939093525f92909116906396248d1290604401602060405180830381865afa158015610465573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906104899190610f73565b9050806104985761010061049c565b6103005b61ffff1686179550505b6104b18b8387610918565b8860600151156104d0576104d08b6104ca846002610f41565b8561065e565b50979998505050505050505050565b825160405162c44a5160e71b81526001600160401b03841660048201525f9182916001600160a01b03909116906362252880906024015f60405180830381865afa92505050801561055157506040513d5f823e601f3d908101601f1916820160405261054e9190810190611021565b60015b61055e5760809150610656565b8060a00151915080604001516001600160401b03165f14158061058d575060808101516001600160a01b031615155b15610599576001831792505b85602001516001600160401b0316815f01516001600160401b0316036105c0576002831792505b85604001516001600160a01b031681608001516001600160a01b0316036105e8576004831792505b8060e00151156105f9576008831792505b428160a001516001600160401b03161115610615576010831792505b61010081015151156106545761064f8161010001515f8151811061063b5761063b610f02565b60200260200101518561098460201b60201c565b831792505b505b935093915050565b825161066b836006610f41565b11156106a85760405162461bcd60e51b815260206004820152600c60248201526b6f7574206f662072616e676560a01b604482015260640161032f565b65ffffffffffff8111156106bf575065ffffffffffff5b910160200180516001600160d01b031660d09290921b919091179052565b82518251604051636f8a8c6960e01b81526001600160a01b03848116600483015260248201929092525f9283928392911690636f8a8c69906044015f60405180830381865afa92505050801561075457506040513d5f823e601f3d908101601f191682016040526107519190810190611142565b60015b61083b57855185516040516001600160601b0319606088901b16602082015260348101919091525f916001600160a01b0316906335abf9c990605401604051602081830303815290604052805190602001206040518263ffffffff1660e01b81526004016107c491815260200190565b6040805180830381865afa1580156107de573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610802919061121f565b6001955090925090508015610818576004841793505b42821015610827576008841793505b815f03610835576010841793505b5061090f565b602081015181516040830151600396509093501561085a576004851794505b815142111561086a576008851794505b6004815111156109035760108517945086602001518160048151811061089257610892610f02565b6020026020010151036108a6576020851794505b8760200151816002815181106108be576108be610f02565b6020026020010151036108d2576040851794505b856001600160a01b0316816001815181106108ef576108ef610f02565b602002602001015103610903576080851794505b84607f16607314935050505b93509350939050565b600881901c60f81b83838151811061093257610932610f02565b60200101906001600160f81b03191690815f1a90535060f881901b83610959846001610f41565b8151811061096957610969610f02565b60200101906001600160f81b03191690815f1a905350505050565b5f60408351101561099657505f610b72565b6020838101516040850151909182146109b457604092505050610b72565b80602a1415806109c55750606a8551105b156109d4575f92505050610b72565b846040815181106109e7576109e7610f02565b6020910101516001600160f81b031916600360fc1b141580610a60575084604181518110610a1757610a17610f02565b6020910101516001600160f81b031916600f60fb1b14801590610a60575084604181518110610a4857610a48610f02565b6020910101516001600160f81b031916600b60fb1b14155b15610a6f575f92505050610b72565b5f60425b606a811015610b49575f878281518110610a8f57610a8f610f02565b016020015160f81c90505f60308210801590610aaf575060398260ff1611155b15610ac657610abf603083611249565b9050610b24565b60618260ff1610158015610ade575060668260ff1611155b15610aee57610abf605783611249565b60418260ff1610158015610b06575060468260ff1611155b15610b1657610abf603783611249565b5f9650505050505050610b72565b60ff8116610b33856010611262565b610b3d9190611293565b93505050600101610a73565b50846001600160a01b0316816001600160a01b031614610b69575f610b6c565b60205b93505050505b92915050565b634e487b7160e01b5f52604160045260245ffd5b604051608081016001600160401b0381118282101715610bae57610bae610b78565b60405290565b604051606081016001600160401b0381118282101715610bae57610bae610b78565b60405161014081016001600160401b0381118282101715610bae57610bae610b78565b604051601f8201601f191681016001600160401b0381118282101715610c2157610c21610b78565b604052919050565b80516001600160a01b0381168114610c3f575f5ffd5b919050565b80518015158114610c3f575f5ffd5b5f60808284031215610c63575f5ffd5b610c6b610b8c565b82518152602080840151908201529050610c8760408301610c29565b6040820152610c9860608301610c44565b606082015292915050565b5f6001600160401b03821115610cbb57610cbb610b78565b5060051b60200190565b5f82601f830112610cd4575f5ffd5b8151610ce7610ce282610ca3565b610bf9565b8082825260208201915060208360071b860101925085831115610d08575f5ffd5b602085015b83811015610d2f57610d1f8782610c53565b8352602090920191608001610d0d565b5095945050505050565b5f82601f830112610d48575f5ffd5b81516001600160401b03811115610d6157610d61610b78565b610d74601f8201601f1916602001610bf9565b818152846020838601011115610d88575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b80516001600160401b0381168114610c3f575f5ffd5b5f60608284031215610dca575f5ffd5b610dd2610bb4565b9050610ddd82610c29565b8152610deb60208301610da4565b6020820152610dfc60408301610c29565b604082015292915050565b5f5f5f5f5f8587036101a0811215610e1d575f5ffd5b60e0811215610e2a575f5ffd5b50610e33610b8c565b610e3c87610c29565b815260208781015190820152610e558860408901610c53565b6040820152610e6660c08801610c44565b606082015260e08701519095506001600160401b03811115610e86575f5ffd5b610e9288828901610cc5565b61010088015190955090506001600160401b03811115610eb0575f5ffd5b610ebc88828901610d39565b935050610ecd876101208801610dba565b6101808701519092506001600160401b03811115610ee9575f5ffd5b610ef588828901610d39565b9150509295509295909350565b634e487b7160e01b5f52603260045260245ffd5b634e487b7160e01b5f52601160045260245ffd5b8082028115828204841417610b7257610b72610f16565b80820180821115610b7257610b72610f16565b5f82610f6e57634e487b7160e01b5f52601260045260245ffd5b500490565b5f60208284031215610f83575f5ffd5b610f8c82610c44565b9392505050565b805160ff81168114610c3f575f5ffd5b5f82601f830112610fb2575f5ffd5b8151610fc0610ce282610ca3565b8082825260208201915060208360051b860101925085831115610fe1575f5ffd5b602085015b83811015610d2f5780516001600160401b03811115611003575f5ffd5b611012886020838a0101610d39565b84525060209283019201610fe6565b5f60208284031215611031575f5ffd5b81516001600160401b03811115611046575f5ffd5b82016101408185031215611058575f5ffd5b611060610bd6565b61106982610da4565b815261107760208301610da4565b602082015261108860408301610da4565b604082015261109960608301610da4565b60608201526110aa60808301610c29565b60808201526110bb60a08301610da4565b60a08201526110cc60c08301610f93565b60c08201526110dd60e08301610c44565b60e08201526101008201516001600160401b038111156110fb575f5ffd5b61110786828501610fa3565b610100830152506101208201516001600160401b03811115611127575f5ffd5b61113386828501610d39565b61012083015250949350505050565b5f60208284031215611152575f5ffd5b81516001600160401b03811115611167575f5ffd5b820160608185031215611178575f5ffd5b611180610bb4565b8151815260208201516001600160401b0381111561119c575f5ffd5b8201601f810186136111ac575f5ffd5b80516111ba610ce282610ca3565b8082825260208201915060208360051b8501019250888311156111db575f5ffd5b6020840193505b828410156111fd5783518252602093840193909101906111e2565b60208501525061121291505060408301610c44565b6040820152949350505050565b5f5f60408385031215611230575f5ffd5b8251915061124060208401610c44565b90509250929050565b60ff8281168282160390811115610b7257610b72610f16565b6001600160a01b0381811683821681810290921691818304811482151761128b5761128b610f16565b505092915050565b6001600160a01b038181168382160190811115610b7257610b72610f1656fe';

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
 * (`input`) or returning over 24,576 (`bytes`); a call is planned up to 50M
 * gas, geth's eth_call cap (`gas`), of which `call` for the call itself. At
 * most `parallel` calls go out at once: a node runs calls of tens of millions
 * of gas one after another, and snapshot.js's provider gives each 25 s.
 */
export const readerLimits = {
  bytes: 24576,
  input: 49152,
  gas: 50000000,
  call: 200000,
  parallel: 3
};

/**
 * Planned gas per voter and credential, and per attestation: the typical
 * cost, the mean of holding a valid SBT and holding none as measured on the
 * local chain (bench/human-id-reader.ts), rounded up; with expiries,
 * `expiry` more per SBT record (gov-id has two: its own and the zk-passport
 * SBT's) and `validUntil` more per attestation. Chunks are planned near the
 * cap from it: a chunk of mostly dearer voters (an SBT that getSBT returns
 * but fails, expired or revoked, runs every fallback; a valid phone or
 * biometrics SBT costs a few thousand more than none) can run over the cap,
 * and is then read again in two halves ({@link halveReaderChunk}), which the
 * dearest voters fit.
 */
export const readerGas: Readonly<
  Record<ReaderCredential | 'attestation' | 'expiry' | 'validUntil', number>
> = {
  'gov-id': 28000,
  phone: 20500,
  biometrics: 19000,
  attestation: 49000,
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

/**
 * Voters one call holds within its limits when none has an attestation to
 * read (each attestation asked takes the room of about one voter less).
 */
export function readerVotersPerCall(layout: ReaderLayout): number {
  const fits = (voters: number) => {
    const next = plan(layout, voters, 0);
    return (
      next.gas <= readerLimits.gas &&
      next.input <= readerLimits.input &&
      next.bytes <= readerLimits.bytes
    );
  };
  let low = 1;
  let high = 65536;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
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
 * publicValues[2] is the action id, 128 publicValues[1] is the voter (evidence
 * only, no condition), 256 permanent store read, 512 the store says unique; 0: not read. `expiry`
 * (with expiries): getSBT's, else sbtOwners', at most 2^48 - 1 (a later one
 * reads as that).
 */
export type ReaderSbt = { flags: number; expiry?: bigint | undefined };

/**
 * One attestation asked. `flags`: 1 exists, 2 schema id as expected, 4
 * attester as expected, 8 revoked, 16 validUntil after block.timestamp, 32
 * recipients[0] is the ABI string of the voter, 64 recipients[0] is not an
 * ABI string at offset 32, 128 getAttestation reverted (that attestation alone
 * is unconfirmed). `validUntil` (with expiries): at most 2^48 - 1.
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
  // getAttestation reverted: Sign Protocol holds no such attestation at the
  // block, which the rule reads as none (the other attestations still count).
  if (flags & 128) {
    return {
      attestation: {
        schemaId: 0n,
        attestTimestamp: 0n,
        attester: readerZeroAddress,
        validUntil: 0n,
        revoked: false,
        recipients: []
      },
      address: voter,
      blockTimestamp: at,
      decodeRecipient: () => undefined
    };
  }
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
