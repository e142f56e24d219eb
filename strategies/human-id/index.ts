import { defaultAbiCoder } from '@ethersproject/abi';
import { getAddress } from '@ethersproject/address';
import { customFetch, getProvider, getSnapshots } from '../../utils';
import {
  checkCleanHandsRow,
  checkOnchainCleanHandsAttestation,
  circuitIds,
  classifySbt,
  cleanHandsAttester,
  cleanHandsSchemaId,
  defaultActionId,
  hubAddresses,
  issuers,
  judgeHumanIdCredential,
  matchCredentials,
  permanentStores,
  signProtocolAddress
} from './rules';

export const author = 'personhood-dao';
export const version = '1.0.0';

const CREDENTIALS = ['gov-id', 'phone', 'biometrics', 'clean-hands'];
const INDEX_URL = 'https://mainnet-rpc.sign.global';
// Gas of the reader, measured on the local chain (README): the worst case per voter and SBT
// credential (getSBT reverts, sbtOwners, zk-passport SBT, permanent store), per attestation, and
// the call's own; chunks stay under 40M, below geth's 50M eth_call cap.
const GAS_PER_SBT = 60000;
const GAS_PER_ATTESTATION = 40000;
const GAS_BASE = 200000;
const GAS_PER_CALL = 40000000;

// Compiled from ./reader.sol by `npm run strategies:reader` (solc 0.8.28, optimizer 200 runs,
// EVM cancun); a test compiles the source and requires these bytes.
const readerCode =
  '0x608060405234801561000f575f5ffd5b506040516110c73803806110c783398101604081905261002e91610bd2565b5f805b85518110156100835785818151811061004c5761004c610d02565b60200260200101516060015161006357600661006f565b61006f60066002610d2a565b6100799083610d47565b9150600101610031565b505f600b83516100939190610d2a565b8285516100a09190610d2a565b6100ab906003610d47565b6100b59190610d47565b90505f816001600160401b038111156100d0576100d06109b7565b6040519080825280602002602001820160405280156100f9578160200160208202803683370190505b50905042815f8151811061010f5761010f610d02565b602002602001018181525050438160018151811061012f5761012f610d02565b602002602001018181525050468160028151811061014f5761014f610d02565b602090810291909101015260035f5b86518110156101cc575f5b89518110156101c3576101b984848f8e8e868151811061018b5761018b610d02565b60200260200101518e8e89815181106101a6576101a6610d02565b602002602001015161022460201b60201c565b9250600101610169565b5060010161015e565b505f5b85518110156102185761020383838d8985815181106101f0576101f0610d02565b602002602001015161034e60201b60201c565b61020e600b83610d47565b91506001016101cf565b50602082510260208301f35b5f86816102358a838a898b8961060f565b905061024260068a610d47565b98508560600151156102725780610264576102618a8a8a888b8961060f565b90505b61026f60068a610d47565b98505b8015801561028c575060408601516001600160a01b031615155b15610340576040808701519051634b12468960e11b81526001600160a01b038681166004830152602482018a90525f9216906396248d1290604401602060405180830381865afa1580156102e2573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906103069190610d5a565b905080610314576020610317565b60605b60ff168b848151811061032c5761032c610d02565b602002602001018181511791508181525050505b509698975050505050505050565b60405162c44a5160e71b81526001600160401b03821660048201525f906001600160a01b038416906362252880906024015f60405180830381865afa158015610399573d5f5f3e3d5ffd5b505050506040513d5f823e601f3d908101601f191682016040526103c09190810190610e73565b9050805f01516001600160401b03168585815181106103e1576103e1610d02565b602090810291909101015260408101516001600160401b031685610406866001610d47565b8151811061041657610416610d02565b602090810291909101015260808101516001600160a01b03168561043b866002610d47565b8151811061044b5761044b610d02565b602090810291909101015260a08101516001600160401b031685610470866003610d47565b8151811061048057610480610d02565b6020026020010181815250508060e0015161049b575f61049e565b60015b60ff16856104ad866004610d47565b815181106104bd576104bd610d02565b602090810291909101015261010081015151856104db866005610d47565b815181106104eb576104eb610d02565b602002602001018181525050806101000151515f0361050a5750610609565b5f8161010001515f8151811061052257610522610d02565b6020026020010151905080518686600661053c9190610d47565b8151811061054c5761054c610d02565b60209081029190910101525f5b60048110801561057357508151610571826020610d2a565b105b156106055760208181028301810151905f90610590908490610d2a565b845161059c9190610f94565b905060208110156105bc576105b2816008610d2a565b5f19901c19821691505b8189846105ca8b6007610d47565b6105d49190610d47565b815181106105e4576105e4610d02565b602002602001018181525050505080806105fd90610fa7565b915050610559565b5050505b50505050565b8251604051636f8a8c6960e01b81526001600160a01b03838116600483015260248201929092525f91861690636f8a8c69906044015f60405180830381865afa92505050801561068057506040513d5f823e601f3d908101601f1916820160405261067d9190810190610fbf565b60015b6107975783516040516001600160601b0319606085901b16602082015260348101919091525f9081906001600160a01b038816906335abf9c990605401604051602081830303815290604052805190602001206040518263ffffffff1660e01b81526004016106f191815260200190565b6040805180830381865afa15801561070b573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061072f919061109c565b915091508061073e575f610741565b60105b60091760ff1689898151811061075957610759610d02565b602090810291909101015281896107718a6005610d47565b8151811061078157610781610d02565b6020026020010181815250505f92505050610992565b602081015180516040830151600882901b906107b3575f6107b6565b60045b60031760ff16178a8a815181106107cf576107cf610d02565b602090810291909101015282518a6107e88b6001610d47565b815181106107f8576107f8610d02565b6020026020010181815250506001811115610853578160018151811061082057610820610d02565b60200260200101518a8a60026108369190610d47565b8151811061084657610846610d02565b6020026020010181815250505b60028111156108a2578160028151811061086f5761086f610d02565b60200260200101518a8a60036108859190610d47565b8151811061089557610895610d02565b6020026020010181815250505b60048111156108f157816004815181106108be576108be610d02565b60200260200101518a8a60046108d49190610d47565b815181106108e4576108e4610d02565b6020026020010181815250505b8260400151158015610904575082514211155b80156109105750600481115b8015610939575086602001518260048151811061092f5761092f610d02565b6020026020010151145b801561095e5750858260028151811061095457610954610d02565b6020026020010151145b801561098c5750846001600160a01b03168260018151811061098257610982610d02565b6020026020010151145b93505050505b9695505050505050565b80516001600160a01b03811681146109b2575f5ffd5b919050565b634e487b7160e01b5f52604160045260245ffd5b60405161014081016001600160401b03811182821017156109ee576109ee6109b7565b60405290565b604051606081016001600160401b03811182821017156109ee576109ee6109b7565b604051601f8201601f191681016001600160401b0381118282101715610a3e57610a3e6109b7565b604052919050565b5f6001600160401b03821115610a5e57610a5e6109b7565b5060051b60200190565b805180151581146109b2575f5ffd5b5f60808284031215610a87575f5ffd5b604051608081016001600160401b0381118282101715610aa957610aa96109b7565b604090815283518252602080850151908301529091508190610acc90840161099c565b6040820152610add60608401610a68565b60608201525092915050565b5f82601f830112610af8575f5ffd5b8151610b0b610b0682610a46565b610a16565b8082825260208201915060208360051b860101925085831115610b2c575f5ffd5b602085015b83811015610b5057610b428161099c565b835260209283019201610b31565b5095945050505050565b80516001600160401b03811681146109b2575f5ffd5b5f82601f830112610b7f575f5ffd5b8151610b8d610b0682610a46565b8082825260208201915060208360051b860101925085831115610bae575f5ffd5b602085015b83811015610b5057610bc481610b5a565b835260209283019201610bb3565b5f5f5f5f5f5f5f610140888a031215610be9575f5ffd5b610bf28861099c565b9650610c006020890161099c565b604089015160608a015191975095506001600160401b03811115610c22575f5ffd5b8801601f81018a13610c32575f5ffd5b8051610c40610b0682610a46565b8082825260208201915060208360071b85010192508c831115610c61575f5ffd5b6020840193505b82841015610c8d57610c7a8d85610a77565b8252602082019150608084019350610c68565b80975050505050610ca18960808a01610a77565b6101008901519093506001600160401b03811115610cbd575f5ffd5b610cc98a828b01610ae9565b6101208a015190935090506001600160401b03811115610ce7575f5ffd5b610cf38a828b01610b70565b91505092959891949750929550565b634e487b7160e01b5f52603260045260245ffd5b634e487b7160e01b5f52601160045260245ffd5b8082028115828204841417610d4157610d41610d16565b92915050565b80820180821115610d4157610d41610d16565b5f60208284031215610d6a575f5ffd5b610d7382610a68565b9392505050565b805160ff811681146109b2575f5ffd5b5f82601f830112610d99575f5ffd5b81516001600160401b03811115610db257610db26109b7565b610dc5601f8201601f1916602001610a16565b818152846020838601011115610dd9575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b5f82601f830112610e04575f5ffd5b8151610e12610b0682610a46565b8082825260208201915060208360051b860101925085831115610e33575f5ffd5b602085015b83811015610b505780516001600160401b03811115610e55575f5ffd5b610e64886020838a0101610d8a565b84525060209283019201610e38565b5f60208284031215610e83575f5ffd5b81516001600160401b03811115610e98575f5ffd5b82016101408185031215610eaa575f5ffd5b610eb26109cb565b610ebb82610b5a565b8152610ec960208301610b5a565b6020820152610eda60408301610b5a565b6040820152610eeb60608301610b5a565b6060820152610efc6080830161099c565b6080820152610f0d60a08301610b5a565b60a0820152610f1e60c08301610d7a565b60c0820152610f2f60e08301610a68565b60e08201526101008201516001600160401b03811115610f4d575f5ffd5b610f5986828501610df5565b610100830152506101208201516001600160401b03811115610f79575f5ffd5b610f8586828501610d8a565b61012083015250949350505050565b81810381811115610d4157610d41610d16565b5f60018201610fb857610fb8610d16565b5060010190565b5f60208284031215610fcf575f5ffd5b81516001600160401b03811115610fe4575f5ffd5b820160608185031215610ff5575f5ffd5b610ffd6109f4565b8151815260208201516001600160401b03811115611019575f5ffd5b8201601f81018613611029575f5ffd5b8051611037610b0682610a46565b8082825260208201915060208360051b850101925088831115611058575f5ffd5b6020840193505b8284101561107a57835182526020938401939091019061105f565b60208501525061108f91505060408301610a68565b6040820152949350505050565b5f5f604083850312156110ad575f5ffd5b825191506110bd60208401610a68565b9050925092905056fe';

const READER_ARGS = [
  'address',
  'address',
  'uint256',
  'tuple(bytes32,uint256,address,bool)[]',
  'tuple(bytes32,uint256,address,bool)',
  'address[]',
  'uint64[]'
];

export type CredentialVerdict = {
  valid: boolean;
  // 'valid', 'legacy' (a permanent store) or why not: 'none', 'expired', 'revoked',
  // 'wrong-issuer', 'wrong-action', 'wrong-recipient', 'wrong-schema', 'wrong-attester', ...
  reason: string;
};

export type HumanVerdict = {
  verified: boolean;
  credentials: Record<string, CredentialVerdict>;
};

export type HumanVerdicts = {
  // The hub chain's block the verdicts were judged at.
  block: { chainId: number; number: number; timestamp: number };
  // By checksummed address.
  voters: Record<string, HumanVerdict>;
};

type Options = {
  credentials: string[];
  match: 'any' | 'all';
  actionId: bigint;
  sandbox: boolean;
};

type Row = {
  attestationId: string;
  attester: string;
  fullSchemaId: string;
  recipients: string[];
  revoked: boolean;
  validUntil: string | number;
};

function readOptions(options: any): Options {
  const credentials: string[] = options?.credentials ?? ['gov-id'];
  if (
    !Array.isArray(credentials) ||
    credentials.length === 0 ||
    credentials.some((credential) => !CREDENTIALS.includes(credential))
  ) {
    throw new Error(`human-id: credentials must be some of ${CREDENTIALS}`);
  }
  const match = options?.match ?? 'any';
  if (match !== 'any' && match !== 'all') {
    throw new Error("human-id: match must be 'any' or 'all'");
  }
  const actionId = String(options?.actionId ?? defaultActionId);
  if (!/^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(actionId)) {
    throw new Error(`human-id: actionId ${actionId} is not a number`);
  }
  const sandbox = options?.sandbox === true;
  if (sandbox && credentials.includes('clean-hands')) {
    throw new Error('human-id: clean-hands lives on Optimism, not the sandbox');
  }
  return {
    credentials: [...new Set(credentials)],
    match,
    actionId: BigInt(actionId),
    sandbox
  };
}

// The attestation index, read per schema and attester (100 rows a page, newest first), kept per
// module so a warm call reads only the new rows; every row is confirmed on chain at the block.
const listings: Record<string, { total: number; rows: Row[] }> = {};

async function indexPage(url: string, page: number, recipient?: string) {
  const query = new URLSearchParams({
    schemaId: cleanHandsSchemaId,
    attester: cleanHandsAttester,
    page: String(page)
  });
  if (recipient) query.set('recipient', recipient);
  const response = await customFetch(
    `${url}/api/index/attestations?${query}`,
    {},
    20000
  );
  const body = response.ok ? await response.json().catch(() => null) : null;
  const data = body?.data;
  if (!data || !Array.isArray(data.rows) || typeof data.total !== 'number') {
    throw new Error(
      `human-id: attestation index ${url} answered ${response.status} without rows`
    );
  }
  return { total: data.total as number, size: 100, rows: data.rows as Row[] };
}

async function allPages(url: string, recipient?: string): Promise<Row[]> {
  const first = await indexPage(url, 1, recipient);
  const pages = Math.ceil(first.total / first.size);
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, i) =>
      indexPage(url, i + 2, recipient)
    )
  );
  return first.rows.concat(...rest.map((page) => page.rows));
}

// The listing, from the cache plus what is new: pages from the first until the newest known row.
async function listing(url: string, voters: number): Promise<Row[] | null> {
  const key = `${url} ${cleanHandsSchemaId} ${cleanHandsAttester}`;
  const cached = listings[key];
  const first = await indexPage(url, 1);
  const pages = Math.ceil(first.total / first.size);
  if (!cached && pages - 1 > voters) return null;
  let rows = first.rows;
  if (cached) {
    const known = new Set(cached.rows.map((row) => row.attestationId));
    const newer = first.total - cached.total;
    for (let page = 2; rows.length <= newer && newer >= 0; page++) {
      rows = rows.concat((await indexPage(url, page)).rows);
    }
    if (newer >= 0 && known.has(rows[newer]?.attestationId)) {
      rows = rows.slice(0, newer).concat(cached.rows);
    } else {
      rows = await allPages(url);
    }
  } else if (pages > 1) {
    const rest = await Promise.all(
      Array.from({ length: pages - 1 }, (_, i) => indexPage(url, i + 2))
    );
    rows = rows.concat(...rest.map((page) => page.rows));
  }
  listings[key] = { total: rows.length, rows };
  return rows;
}

// Index rows by voter (lower case): one filtered listing per voter, or the whole listing.
async function cleanHandsRows(voters: string[]) {
  const url = process.env.ATTESTATION_INDEX_URL || INDEX_URL;
  const byVoter: Record<string, Row[]> = {};
  voters.forEach((voter) => (byVoter[voter.toLowerCase()] = []));
  const listed = voters.length > 1 ? await listing(url, voters.length) : null;
  const rows =
    listed ??
    (await Promise.all(voters.map((voter) => allPages(url, voter)))).flat();
  for (const row of rows) {
    const recipients = Array.isArray(row?.recipients) ? row.recipients : [];
    const named = new Set(recipients.map((r) => String(r).toLowerCase()));
    for (const recipient of named) {
      if (byVoter[recipient] && !byVoter[recipient].includes(row)) {
        byVoter[recipient].push(row);
      }
    }
  }
  return byVoter;
}

// The attestation id of a well-formed row, as a uint64.
function attestationId(row: Row): bigint | undefined {
  if (!wellFormed(row)) return undefined;
  const id = typeof row.attestationId === 'string' ? row.attestationId : '';
  const value = /^0x[0-9a-fA-F]{1,16}$/.test(id) ? BigInt(id) : undefined;
  return value !== undefined && value < 2n ** 64n ? value : undefined;
}

function word(data: string, index: number): bigint {
  const hex = data.slice(2 + index * 64, 2 + (index + 1) * 64);
  if (hex.length !== 64)
    throw new Error('human-id: reader returned too few words');
  return BigInt(`0x${hex}`);
}

// One SBT record of the reader (see reader.sol), as the rule reads it.
function sbtRecord(data: string, at: number) {
  const flags = word(data, at);
  const count = Number(flags >> 8n);
  const values = [
    0n,
    word(data, at + 2),
    word(data, at + 3),
    0n,
    word(data, at + 4)
  ];
  return {
    read: (flags & 1n) === 1n,
    getSBT:
      (flags & 2n) === 2n
        ? {
            status: 'success' as const,
            expiry: word(data, at + 1),
            publicValues: values.slice(0, Math.min(count, 5)),
            revoked: (flags & 4n) === 4n
          }
        : { status: 'reverted' as const },
    sbtOwners:
      (flags & 8n) === 8n
        ? { expiry: word(data, at + 5), revoked: (flags & 16n) === 16n }
        : undefined,
    legacy: (flags & 32n) === 32n ? (flags & 64n) === 64n : undefined
  };
}

function sbtVerdict(
  record,
  timestamp: bigint,
  circuit: string,
  voter: string,
  actionId: bigint
) {
  if (!record.read)
    throw new Error(`human-id: reader skipped ${circuit} of ${voter}`);
  const verdict = classifySbt({
    getSBT: record.getSBT,
    sbtOwners: record.sbtOwners,
    blockTimestamp: timestamp,
    actionId,
    issuer: BigInt(issuers[circuit]),
    recipient: BigInt(voter)
  });
  if (verdict.status !== 'classified') {
    throw new Error(
      `human-id: Human ID hub answered inconsistently for ${circuit} of ${voter}: ${verdict.status === 'inconsistent' ? verdict.details : verdict.status}`
    );
  }
  return verdict;
}

// How far a clean-hands attestation got: the most telling reason wins (as the library ranks).
const CLEAN_HANDS_RANK = [
  'malformed',
  'wrong-schema',
  'wrong-attester',
  'wrong-recipient',
  'revoked',
  'expired',
  'valid-row',
  'none',
  'wrong-schema-onchain',
  'wrong-attester-onchain',
  'revoked-onchain',
  'expired-onchain',
  'wrong-recipient-onchain',
  'valid-onchain'
];

function decodeRecipient(data: string, at: number): string | undefined {
  const length = Number(word(data, at + 6));
  if (length > 128)
    throw new Error('human-id: a clean-hands recipient is over 128 bytes');
  const bytes = `0x${data.slice(2 + (at + 7) * 64, 2 + (at + 11) * 64)}`.slice(
    0,
    2 + length * 2
  );
  try {
    return defaultAbiCoder.decode(['string'], bytes)[0];
  } catch {
    return undefined;
  }
}

/**
 * Per voter (checksummed), whether the asked Human ID credentials match at the snapshot, and each
 * credential's verdict; for human-id and the strategies that reuse it. Throws an Error naming the
 * source that failed (the hub chain, the blockfinder, the attestation index): never a silent 0.
 */
export async function verifyHumans(
  network: string,
  provider,
  addresses: string[],
  options,
  snapshot: number | string
): Promise<HumanVerdicts> {
  const { credentials, match, actionId, sandbox } = readOptions(options);
  const hubNetwork = sandbox ? '84532' : '10';
  const voters = [...new Set(addresses.map((address) => getAddress(address)))];
  let hubProvider = provider;
  let blockTag: number | string = snapshot;
  if (network !== hubNetwork) {
    hubProvider = getProvider(hubNetwork);
    const blocks = await getSnapshots(network, snapshot, provider, [
      hubNetwork
    ]);
    blockTag = blocks[hubNetwork];
  }
  const sbts = credentials.filter((c) => c !== 'clean-hands');
  const circuits = sbts.map((c) => [
    circuitIds[c],
    BigInt(issuers[c]),
    (!sandbox && permanentStores[c]) ||
      '0x0000000000000000000000000000000000000000',
    c === 'gov-id'
  ]);
  const passport = [circuitIds['zk-passport'], BigInt(issuers['zk-passport'])];
  const perVoter = sbts.reduce((n, c) => n + (c === 'gov-id' ? 12 : 6), 0);

  const rows = credentials.includes('clean-hands')
    ? await cleanHandsRows(voters)
    : {};
  const ids = new Map<bigint, number>();
  for (const voter of voters) {
    for (const row of rows[voter.toLowerCase()] ?? []) {
      const id = attestationId(row);
      if (id !== undefined && !ids.has(id)) ids.set(id, ids.size);
    }
  }

  // Chunks of voters (and their attestations) under the gas cap; one eth_call each.
  const chunks: { voters: string[]; ids: bigint[] }[] = [];
  let chunk = { voters: [] as string[], ids: [] as bigint[] };
  let gas = GAS_BASE;
  const chunkIds = new Set<bigint>();
  for (const voter of voters) {
    const mine = (rows[voter.toLowerCase()] ?? [])
      .map(attestationId)
      .filter((id) => id !== undefined && !chunkIds.has(id)) as bigint[];
    const cost = sbts.length * GAS_PER_SBT + mine.length * GAS_PER_ATTESTATION;
    if (chunk.voters.length > 0 && gas + cost > GAS_PER_CALL) {
      chunks.push(chunk);
      chunk = { voters: [], ids: [] };
      chunkIds.clear();
      gas = GAS_BASE;
    }
    chunk.voters.push(voter);
    for (const id of mine) {
      if (!chunkIds.has(id)) chunk.ids.push(id);
      chunkIds.add(id);
    }
    gas += cost;
  }
  if (chunk.voters.length > 0) chunks.push(chunk);

  const hub = hubAddresses[hubNetwork];
  const results = await Promise.all(
    chunks.map(async ({ voters, ids }) => {
      const args = defaultAbiCoder.encode(READER_ARGS, [
        hub,
        sandbox ? hub : signProtocolAddress,
        actionId,
        circuits,
        [passport[0], passport[1], hub, false],
        voters,
        ids
      ]);
      try {
        const data = await hubProvider.call(
          { data: readerCode + args.slice(2) },
          blockTag === 'latest' ? 'latest' : Number(blockTag)
        );
        return { voters, ids, data: data as string };
      } catch (e: any) {
        throw new Error(
          `human-id: Human ID contracts on chain ${hubNetwork} at block ${blockTag} failed: ${e?.reason ?? e?.message ?? e}`
        );
      }
    })
  );

  const first = results[0].data;
  const block = {
    timestamp: Number(word(first, 0)),
    number: Number(word(first, 1)),
    chainId: Number(word(first, 2))
  };
  if (String(block.chainId) !== hubNetwork) {
    throw new Error(
      `human-id: the provider for network ${hubNetwork} is on chain ${block.chainId}`
    );
  }
  const timestamp = BigInt(block.timestamp);
  const out: Record<string, HumanVerdict> = {};
  for (const { voters, ids, data } of results) {
    if (word(data, 1) !== BigInt(block.number)) {
      throw new Error(
        'human-id: the reader calls answered at different blocks'
      );
    }
    const attestationAt = 3 + voters.length * perVoter;
    const onchain = new Map(ids.map((id, i) => [id, attestationAt + i * 11]));
    let at = 3;
    for (const voter of voters) {
      const verdicts: Record<string, CredentialVerdict> = {};
      for (const circuit of sbts) {
        const record = sbtRecord(data, at);
        const primary = sbtVerdict(record, timestamp, circuit, voter, actionId);
        at += 6;
        let zk;
        if (circuit === 'gov-id') {
          const zkRecord = sbtRecord(data, at);
          at += 6;
          if (primary.reason !== 'valid') {
            zk = sbtVerdict(
              zkRecord,
              timestamp,
              'zk-passport',
              voter,
              actionId
            );
          }
        }
        const needsStore =
          primary.reason !== 'valid' &&
          zk?.reason !== 'valid' &&
          !sandbox &&
          permanentStores[circuit];
        if (needsStore && record.legacy === undefined) {
          throw new Error(
            `human-id: reader skipped the permanent store of ${voter}`
          );
        }
        const verdict = judgeHumanIdCredential({
          primary,
          passport: zk,
          legacy: needsStore ? record.legacy : undefined
        });
        verdicts[circuit] = { valid: verdict.valid, reason: verdict.reason };
      }
      if (credentials.includes('clean-hands')) {
        verdicts['clean-hands'] = cleanHands(
          voter,
          rows[voter.toLowerCase()] ?? [],
          data,
          onchain,
          timestamp
        );
      }
      const matched = matchCredentials({
        verdicts: credentials.map((credential) => ({
          credential,
          valid: verdicts[credential].valid
        })),
        credentials,
        match
      });
      out[voter] = {
        verified: matched,
        credentials: Object.fromEntries(
          credentials.map((credential) => [credential, verdicts[credential]])
        )
      };
    }
  }
  return { block, voters: out };
}

// A row as the index should send it (the library's schema); any other is judged malformed.
function wellFormed(row: any): boolean {
  const text = (value) => typeof value === 'string';
  const numeric = (value) => typeof value === 'number' || text(value);
  return (
    typeof row === 'object' &&
    row !== null &&
    text(row.fullSchemaId) &&
    text(row.attester) &&
    typeof row.revoked === 'boolean' &&
    numeric(row.validUntil) &&
    (row.attestationId === undefined || text(row.attestationId)) &&
    (row.schemaId === undefined || text(row.schemaId)) &&
    (row.attestTimestamp === undefined || numeric(row.attestTimestamp)) &&
    Array.isArray(row.recipients) &&
    row.recipients.every(text)
  );
}

function cleanHands(
  voter: string,
  rows: Row[],
  data: string,
  onchain: Map<bigint, number>,
  timestamp: bigint
): CredentialVerdict {
  let best = { rank: -1, reason: 'none' };
  for (const row of rows) {
    let reason = wellFormed(row)
      ? checkCleanHandsRow({ ...row, isReceiver: true }, timestamp)
      : 'malformed';
    const id = attestationId(row);
    if (reason === 'valid' && id === undefined) reason = 'malformed';
    let rank = CLEAN_HANDS_RANK.indexOf(
      reason === 'valid' ? 'valid-row' : reason
    );
    if (reason === 'valid') {
      const at = onchain.get(id as bigint);
      if (at === undefined)
        throw new Error(`human-id: reader skipped attestation ${id}`);
      reason = checkOnchainCleanHandsAttestation({
        attestation: {
          schemaId: word(data, at),
          attestTimestamp: word(data, at + 1),
          attester: getAddress(
            `0x${word(data, at + 2)
              .toString(16)
              .padStart(40, '0')}`
          ),
          validUntil: word(data, at + 3),
          revoked: word(data, at + 4) === 1n,
          recipients: word(data, at + 5) > 0n ? ['recipient'] : []
        },
        address: voter,
        blockTimestamp: timestamp,
        decodeRecipient: () => decodeRecipient(data, at)
      });
      rank = CLEAN_HANDS_RANK.indexOf(
        reason === 'none' ? 'none' : `${reason}-onchain`
      );
    }
    if (rank > best.rank) best = { rank, reason };
  }
  return { valid: best.reason === 'valid', reason: best.reason };
}

export async function strategy(
  space,
  network,
  provider,
  addresses,
  options,
  snapshot
): Promise<Record<string, number>> {
  const score = options?.score ?? 1;
  if (typeof score !== 'number' || !(score > 0)) {
    throw new Error('human-id: score must be a positive number');
  }
  if (addresses.length === 0) return {};
  const { voters } = await verifyHumans(
    network,
    provider,
    addresses,
    options,
    snapshot
  );
  return Object.fromEntries(
    addresses.map((address) => {
      const voter = voters[getAddress(address)];
      return [getAddress(address), voter.verified ? score : 0];
    })
  );
}
