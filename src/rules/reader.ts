/** The deployless reader's protocol (reader.sol documents its layout): code, arguments, answer. */

/** Compiled from reader.sol by `npm run strategies:reader` (a test compares the bytes). */
export const readerCode =
  '0x608060405234801561000f575f5ffd5b506040516116b93803806116b983398101604081905261002e9161117f565b5f6001600160a01b0382161561005c576014855161004c919061129e565b6100579060096112bd565b61005e565b5f5b90505f8161006e89898988610120565b61007891906112d4565b6001600160401b0381111561008f5761008f610ef0565b6040519080825280601f01601f1916602001820160405280156100b9576020820181803683370190505b5042602082015243604082015246606082015290505f6100db828a8a8a6101fa565b905061010082828b606001516100f25760016100f5565b60075b60ff16898b8a61027e565b6101188284845161011191906112e7565b868a610365565b815160208301f35b5f5f8560600151610132576002610135565b60085b60ff1690505f805b865181101561018d57868181518110610158576101586112fa565b60200260200101516060015161016e5782610179565b6101798360026112bd565b61018390836112d4565b915060010161013d565b505f876060015161019f5760016101a2565b60075b60ff16905080600a86516101b6919061129e565b6101c091906112bd565b82601488516101cf919061129e565b6101d991906112bd565b6101e49060606112d4565b6101ee91906112d4565b98975050505050505050565b6040516060905f5b60148451610210919061129e565b811015610274575f6102228583610493565b90505f5b865181101561026a5761025b89868a8a8581518110610247576102476112fa565b6020026020010151866104f460201b60201c565b60408590529450600101610226565b5050600101610202565b5050949350505050565b6040515f5b600a8351610291919061129e565b81101561035b57600a810283016020015160c081901c9060b01c61ffff165f6102ba8783610493565b90505f806102c98a868561068c565b915091508160f81b8d8c886102de91906112bd565b6102e8908f6112d4565b815181106102f8576102f86112fa565b60200101906001600160f81b03191690815f1a90535060018b1115610349576103498d6103258d896112bd565b61032f908f6112d4565b61033a9060016112d4565b6001600160401b03841661080b565b50505060408490525050600101610283565b5050505050505050565b6001600160a01b0382161561048d576001600160a01b0382163b15155f5b60148351610391919061129e565b81101561048a576014810283016020015160601c5f80846103b45760025f6103be565b6103be878461088a565b915091508160f81b898560096103d491906112bd565b6103de908b6112d4565b815181106103ee576103ee6112fa565b60200101906001600160f81b03191690815f1a9053505f5b600881101561047a5761041a8160086112bd565b82901c60f81b8a8261042d8860096112bd565b610437908d6112d4565b6104429060086112d4565b61044c91906112e7565b8151811061045c5761045c6112fa565b60200101906001600160f81b03191690815f1a905350600101610406565b5050600190920191506103839050565b50505b50505050565b5f601483516104a2919061129e565b82106104e55760405162461bcd60e51b815260206004820152600d60248201526c37379039bab1b4103b37ba32b960991b60448201526064015b60405180910390fd5b50601402016020015160601c90565b5f808080610503878787610a55565b9250925092505f8890505f886060015161051e576002610521565b60085b60ff169050610530818b6112d4565b995087606001511561059a575f5f85610561576105588b8c604001518b610a5560201b60201c565b90975090925090505b61056c8d8d84610c90565b8a606001511561058b5761058b8d6105858e60026112d4565b8361080b565b610595838d6112d4565b9b5050505b831580156105b4575060408801516001600160a01b031615155b156106535760408089015160208b01519151634b12468960e11b81526001600160a01b038a8116600483015260248201939093525f92909116906396248d1290604401602060405180830381865afa158015610612573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610636919061130e565b90508061064557610100610649565b6103005b61ffff1686179550505b61065e8b8387610c90565b88606001511561067d5761067d8b6106778460026112d4565b8561080b565b50979998505050505050505050565b825160405162c44a5160e71b81526001600160401b03841660048201525f9182916001600160a01b03909116906362252880906024015f60405180830381865afa9250505080156106fe57506040513d5f823e601f3d908101601f191682016040526106fb91908101906113bc565b60015b61070b5760809150610803565b8060a00151915080604001516001600160401b03165f14158061073a575060808101516001600160a01b031615155b15610746576001831792505b85602001516001600160401b0316815f01516001600160401b03160361076d576002831792505b85604001516001600160a01b031681608001516001600160a01b031603610795576004831792505b8060e00151156107a6576008831792505b428160a001516001600160401b031611156107c2576010831792505b6101008101515115610801576107fc8161010001515f815181106107e8576107e86112fa565b602002602001015185610cfc60201b60201c565b831792505b505b935093915050565b82516108188360066112d4565b11156108555760405162461bcd60e51b815260206004820152600c60248201526b6f7574206f662072616e676560a01b60448201526064016104dc565b65ffffffffffff81111561086c575065ffffffffffff5b910160200180516001600160d01b031660d09290921b919091179052565b5f5f5f5f856001600160a01b031663d47875d0866040516024016108bd91906001600160a01b0391909116815260200190565b6040516020818303038152906040529060e01b6020820180516001600160e01b0383818316178352505050506040516108f691906114dd565b5f60405180830381855afa9150503d805f811461092e576040519150601f19603f3d011682016040523d82523d5f602084013e610933565b606091505b50915091505f6020825110610959578180602001905181019061095691906114f3565b93505b600482511061096e5761096b8261150a565b90505b8215801561097e57506024825110155b1561098b57602482015193505b6001600160401b038411156109a95760045f94509450505050610a4e565b8280156109b7575081516020145b156109c85760019450505050610a4e565b821580156109d7575081516004145b80156109f3575063120a2e7760e01b6001600160e01b03198216145b15610a075760025f94509450505050610a4e565b82158015610a16575081516024145b8015610a3257506306c0940560e01b6001600160e01b03198216145b15610a435760039450505050610a4e565b60045f945094505050505b9250929050565b82518251604051636f8a8c6960e01b81526001600160a01b03848116600483015260248201929092525f9283928392911690636f8a8c69906044015f60405180830381865afa925050508015610acc57506040513d5f823e601f3d908101601f19168201604052610ac99190810190611548565b60015b610bb357855185516040516001600160601b0319606088901b16602082015260348101919091525f916001600160a01b0316906335abf9c990605401604051602081830303815290604052805190602001206040518263ffffffff1660e01b8152600401610b3c91815260200190565b6040805180830381865afa158015610b56573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610b7a9190611625565b6001955090925090508015610b90576004841793505b42821015610b9f576008841793505b815f03610bad576010841793505b50610c87565b6020810151815160408301516003965090935015610bd2576004851794505b8151421115610be2576008851794505b600481511115610c7b57601085179450866020015181600481518110610c0a57610c0a6112fa565b602002602001015103610c1e576020851794505b876020015181600281518110610c3657610c366112fa565b602002602001015103610c4a576040851794505b856001600160a01b031681600181518110610c6757610c676112fa565b602002602001015103610c7b576080851794505b84607f16607314935050505b93509350939050565b600881901c60f81b838381518110610caa57610caa6112fa565b60200101906001600160f81b03191690815f1a90535060f881901b83610cd18460016112d4565b81518110610ce157610ce16112fa565b60200101906001600160f81b03191690815f1a905350505050565b5f604083511015610d0e57505f610eea565b602083810151604085015190918214610d2c57604092505050610eea565b80602a141580610d3d5750606a8551105b15610d4c575f92505050610eea565b84604081518110610d5f57610d5f6112fa565b6020910101516001600160f81b031916600360fc1b141580610dd8575084604181518110610d8f57610d8f6112fa565b6020910101516001600160f81b031916600f60fb1b14801590610dd8575084604181518110610dc057610dc06112fa565b6020910101516001600160f81b031916600b60fb1b14155b15610de7575f92505050610eea565b5f60425b606a811015610ec1575f878281518110610e0757610e076112fa565b016020015160f81c90505f60308210801590610e27575060398260ff1611155b15610e3e57610e3760308361164f565b9050610e9c565b60618260ff1610158015610e56575060668260ff1611155b15610e6657610e3760578361164f565b60418260ff1610158015610e7e575060468260ff1611155b15610e8e57610e3760378361164f565b5f9650505050505050610eea565b60ff8116610eab856010611668565b610eb59190611699565b93505050600101610deb565b50846001600160a01b0316816001600160a01b031614610ee1575f610ee4565b60205b93505050505b92915050565b634e487b7160e01b5f52604160045260245ffd5b604051608081016001600160401b0381118282101715610f2657610f26610ef0565b60405290565b604051606081016001600160401b0381118282101715610f2657610f26610ef0565b60405161014081016001600160401b0381118282101715610f2657610f26610ef0565b604051601f8201601f191681016001600160401b0381118282101715610f9957610f99610ef0565b604052919050565b80516001600160a01b0381168114610fb7575f5ffd5b919050565b80518015158114610fb7575f5ffd5b5f60808284031215610fdb575f5ffd5b610fe3610f04565b82518152602080840151908201529050610fff60408301610fa1565b604082015261101060608301610fbc565b606082015292915050565b5f6001600160401b0382111561103357611033610ef0565b5060051b60200190565b5f82601f83011261104c575f5ffd5b815161105f61105a8261101b565b610f71565b8082825260208201915060208360071b860101925085831115611080575f5ffd5b602085015b838110156110a7576110978782610fcb565b8352602090920191608001611085565b5095945050505050565b5f82601f8301126110c0575f5ffd5b81516001600160401b038111156110d9576110d9610ef0565b6110ec601f8201601f1916602001610f71565b818152846020838601011115611100575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b80516001600160401b0381168114610fb7575f5ffd5b5f60608284031215611142575f5ffd5b61114a610f2c565b905061115582610fa1565b81526111636020830161111c565b602082015261117460408301610fa1565b604082015292915050565b5f5f5f5f5f5f8688036101c0811215611196575f5ffd5b60e08112156111a3575f5ffd5b506111ac610f04565b6111b588610fa1565b8152602088810151908201526111ce8960408a01610fcb565b60408201526111df60c08901610fbc565b606082015260e08801519096506001600160401b038111156111ff575f5ffd5b61120b89828a0161103d565b61010089015190965090506001600160401b03811115611229575f5ffd5b61123589828a016110b1565b945050611246886101208901611132565b6101808801519093506001600160401b03811115611262575f5ffd5b61126e89828a016110b1565b92505061127e6101a08801610fa1565b90509295509295509295565b634e487b7160e01b5f52601160045260245ffd5b5f826112b857634e487b7160e01b5f52601260045260245ffd5b500490565b8082028115828204841417610eea57610eea61128a565b80820180821115610eea57610eea61128a565b81810381811115610eea57610eea61128a565b634e487b7160e01b5f52603260045260245ffd5b5f6020828403121561131e575f5ffd5b61132782610fbc565b9392505050565b805160ff81168114610fb7575f5ffd5b5f82601f83011261134d575f5ffd5b815161135b61105a8261101b565b8082825260208201915060208360051b86010192508583111561137c575f5ffd5b602085015b838110156110a75780516001600160401b0381111561139e575f5ffd5b6113ad886020838a01016110b1565b84525060209283019201611381565b5f602082840312156113cc575f5ffd5b81516001600160401b038111156113e1575f5ffd5b820161014081850312156113f3575f5ffd5b6113fb610f4e565b6114048261111c565b81526114126020830161111c565b60208201526114236040830161111c565b60408201526114346060830161111c565b606082015261144560808301610fa1565b608082015261145660a0830161111c565b60a082015261146760c0830161132e565b60c082015261147860e08301610fbc565b60e08201526101008201516001600160401b03811115611496575f5ffd5b6114a28682850161133e565b610100830152506101208201516001600160401b038111156114c2575f5ffd5b6114ce868285016110b1565b61012083015250949350505050565b5f82518060208501845e5f920191825250919050565b5f60208284031215611503575f5ffd5b5051919050565b805160208201516001600160e01b0319811691906004821015611541576001600160e01b0319600483900360031b81901b82161692505b5050919050565b5f60208284031215611558575f5ffd5b81516001600160401b0381111561156d575f5ffd5b82016060818503121561157e575f5ffd5b611586610f2c565b8151815260208201516001600160401b038111156115a2575f5ffd5b8201601f810186136115b2575f5ffd5b80516115c061105a8261101b565b8082825260208201915060208360051b8501019250888311156115e1575f5ffd5b6020840193505b828410156116035783518252602093840193909101906115e8565b60208501525061161891505060408301610fbc565b6040820152949350505050565b5f5f60408385031215611636575f5ffd5b8251915061164660208401610fbc565b90509250929050565b60ff8281168282160390811115610eea57610eea61128a565b6001600160a01b038181168382168181029092169181830481148215176116915761169161128a565b505092915050565b6001600160a01b038181168382160190811115610eea57610eea61128a56fe';

/**
 * The constructor's arguments (see {@link readerValues}), for ethers' `defaultAbiCoder.encode` and
 * viem's `encodeAbiParameters(parseAbiParameters(readerArgs.join(', ')), values)` alike.
 */
export const readerArgs: readonly string[] = [
  '(address,uint256,(bytes32,uint256,address,bool),bool)',
  '(bytes32,uint256,address,bool)[]',
  'bytes',
  '(address,uint64,address)',
  'bytes',
  'address'
];

/** The zero address: no permanent store, no Sign Protocol, no Passport decoder. */
export const readerZeroAddress = '0x0000000000000000000000000000000000000000';

/** The SBT credentials the reader reads (clean hands is read by attestation). */
export type ReaderCredential = 'gov-id' | 'phone' | 'biometrics';

/** Per voter: the credentials asked, with `expiries` their expiries, with `passport` getScore. */
export type ReaderLayout = {
  credentials: readonly string[];
  expiries?: boolean | undefined;
  passport?: boolean | undefined;
};

/** One call's limits (bytes sent, returned; gas: geth's cap), and calls at once (25 s each). */
export const readerLimits = {
  bytes: 24576,
  input: 49152,
  gas: 50000000,
  call: 200000,
  parallel: 3
};

/**
 * Planned gas per credential, attestation, Passport read, expiry (bench/human-id-reader.ts): a
 * chunk of dearer voters can run over the cap and is read again in halves ({@link halveReaderChunk}).
 */
export const readerGas = {
  'gov-id': 28000,
  phone: 20500,
  biometrics: 19000,
  attestation: 49000,
  expiry: 1600,
  validUntil: 2000,
  passport: 40000
};

const HEAD = 96;
const PAIR_SENT = 10;
const ARGS = 1024;
const PASSPORT = 9;

const sbtBytes = (layout: ReaderLayout) => (layout.expiries ? 8 : 2);
const pairBytes = (layout: ReaderLayout) => (layout.expiries ? 7 : 1);
const passportBytes = (layout: ReaderLayout) =>
  layout.passport ? PASSPORT : 0;

/** Voters read by one call, their attestations (id, voter), and the plan. */
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

/** Bytes of one voter's SBT records in the answer. */
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
    (expiries ? records(layout) * readerGas.expiry : 0) +
    (layout.passport ? readerGas.passport : 0);
  const perPair = readerGas.attestation + (expiries ? readerGas.validUntil : 0);
  const perVoterBytes = readerVoterBytes(layout) + passportBytes(layout);
  return {
    gas: readerLimits.call + voters * perVoter + pairs * perPair,
    input: readerCode.length / 2 + ARGS + voters * 20 + pairs * PAIR_SENT,
    bytes: HEAD + voters * perVoterBytes + pairs * pairBytes(layout)
  };
}

/** The voters in chunks, in order, each within one call's limits, with their attestations. */
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

/** The answers of a chunk's two halves as the answer of the whole chunk. */
export function joinReaderHalves(
  layout: ReaderLayout,
  halves: [ReaderChunk, ReaderChunk],
  answers: [string, string]
): string {
  const head = 2 + 2 * HEAD;
  const cut = (half: ReaderChunk, data: string) => {
    const end = head + 2 * half.voters.length * readerVoterBytes(layout);
    const tail = data.length - 2 * half.voters.length * passportBytes(layout);
    return {
      records: data.slice(head, end),
      pairs: data.slice(end, tail),
      passports: data.slice(tail)
    };
  };
  const [a, b] = [cut(halves[0], answers[0]), cut(halves[1], answers[1])];
  const parts = ['records', 'pairs', 'passports'] as const;
  return answers[0].slice(0, head) + parts.map(k => a[k] + b[k]).join('');
}

/** What the reader is asked besides the voters (no Sign Protocol: no clean hands). */
export type ReaderAsk = {
  hub: string;
  actionId: bigint;
  circuits: Array<{
    credential: string;
    circuitId: string;
    issuer: bigint;
    store: string;
  }>;
  passport: { circuitId: string; issuer: bigint };
  signProtocol?: string;
  schemaId?: bigint;
  attester?: string;
  passportDecoder?: string;
};

function hex(value: bigint | number, bytes: number): string {
  return value.toString(16).padStart(2 * bytes, '0');
}

/**
 * A chunk's constructor arguments: hub, action id, zk-passport circuit, expiries; the circuits; the
 * voters (20 bytes each); clean hands; the attestations (8-byte id, 2-byte voter); the decoder.
 */
export function readerValues(
  layout: ReaderLayout,
  ask: ReaderAsk,
  chunk: ReaderChunk
): unknown[] {
  const position = new Map(chunk.voters.map((voter, index) => [voter, index]));
  const decoder = layout.passport ? ask.passportDecoder : undefined;
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
    [
      ask.signProtocol ?? readerZeroAddress,
      ask.schemaId ?? 0n,
      ask.attester ?? readerZeroAddress
    ],
    `0x${chunk.pairs
      .map(([id, voter]) => hex(id, 8) + hex(position.get(voter) as number, 2))
      .join('')}`,
    decoder ?? readerZeroAddress
  ];
}

function word(data: string, index: number): number {
  return Number(BigInt(`0x${data.slice(2 + index * 64, 66 + index * 64)}`));
}

/** The block the reader ran at, from the head of its answer. */
export function readerBlock(data: string) {
  return {
    timestamp: word(data, 0),
    number: word(data, 1),
    chainId: word(data, 2)
  };
}

/** One SBT record: its flags (reader.sol; 0: not read) and, with expiries, its expiry. */
export type ReaderSbt = { flags: number; expiry?: bigint };

/** One attestation asked: its flags (reader.sol) and, with expiries, its validUntil. */
export type ReaderAttestation = { flags: number; validUntil?: bigint };

/** A voter's getScore: 1 returned `value`; 2 not found; 3 expired at `value`; 4 anything else. */
export type ReaderPassport = { status: number; value: bigint };

/** What the reader answered for one voter. */
export type ReaderVoter = {
  voter: string;
  credentials: Partial<
    Record<ReaderCredential, { primary: ReaderSbt; passport?: ReaderSbt }>
  >;
  attestations: Map<bigint, ReaderAttestation>;
  onchainPassport?: ReaderPassport | undefined;
};

/** `size` bytes at byte `at`: the first `flags` bytes as a number, the rest as a bigint. */
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
  const passportsAt = pairsAt + chunk.pairs.length * pair;
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
  return chunk.voters.map((voter, index) => {
    const read: ReaderVoter['credentials'] = {};
    for (const credential of sbtsOf(layout)) {
      const primary = next();
      read[credential] =
        credential === 'gov-id' ? { primary, passport: next() } : { primary };
    }
    const where = passportsAt + index * PASSPORT;
    const record = layout.passport && recordAt(data, where, 1, PASSPORT);
    const onchainPassport: ReaderPassport | undefined = record
      ? { status: record.flags, value: record.value as bigint }
      : undefined;
    return {
      voter,
      credentials: read,
      attestations: byVoter.get(voter) as Map<bigint, ReaderAttestation>,
      onchainPassport
    };
  });
}

/** A Passport record as the decoder's answer (`success`, hex `data`) for ./passport-onchain.ts. */
export function readerPassportAnswer(record: ReaderPassport) {
  const value = record.value.toString(16).padStart(64, '0');
  if (record.status === 1) return { success: true, data: `0x${value}` };
  if (record.status === 2) return { success: false, data: '0x120a2e77' };
  if (record.status === 3)
    return { success: false, data: `0x06c09405${value}` };
  return { success: false, data: '0x' };
}

/** The permanent store's answer in an SBT record: undefined when not read. */
export function readerStore(sbt: ReaderSbt): boolean | undefined {
  return sbt.flags & 256 ? (sbt.flags & 512) !== 0 : undefined;
}

/**
 * An SBT record as classifySbt (./sbt.ts) reads it at `at` (undefined: not read), with values
 * standing for the comparisons the reader made (public values; without expiries, the expiry).
 */
export function readerSbtReads(
  sbt: ReaderSbt,
  at: bigint,
  voter: string,
  expected: { actionId: bigint; issuer: bigint }
) {
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
    const getSBT = { status: 'success' as const, expiry, revoked };
    return { getSBT: { ...getSBT, publicValues: values } };
  }
  const expiry = sbt.expiry ?? (flags & 16 ? 0n : standIn);
  const getSBT = { status: 'reverted' as const };
  return { getSBT, sbtOwners: { expiry, revoked } };
}
