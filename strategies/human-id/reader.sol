// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title HumanIdReader: the human-id strategy's one eth_call per chunk of voters.
/// @notice Never deployed: an `eth_call` with no `to` runs this constructor at the asked block.
/// It reads what each voter still needs and returns (assembly `return`) packed bytes. A node
/// refuses returned bytes over 24,576 (the contract size limit), so the caller chunks.
///
/// The reader does not judge: it compares each value with the expected one and returns the
/// comparisons; index.ts hands them to the rules (./rules), which decide in their own order.
/// It only skips reads: sbtOwners is read only when getSBT reverts, and the zk-passport SBT and
/// the permanent store only while no SBT before them passes every comparison.
///
/// Returned bytes:
/// - 32 bytes each: block.timestamp, block.number, block.chainid;
/// - per voter, per asked circuit: an SBT record, then for a circuit with `zkPassport` the
///   zk-passport SBT record. A record is 2 bytes of flags; with `ask.expiries`, 8 bytes: the
///   flags, then the SBT's expiry (getSBT's, else sbtOwners'; 0 when not read) in 6 bytes, at
///   most 2^48 - 1 (a later expiry is written as that: past any date a verdict shows). Each
///   returned byte costs 200 gas (a creation pays for the code it returns), so a caller that only
///   scores leaves `expiries` off. Flags: 1 read, 2 getSBT succeeded,
///   4 revoked, 8 expiry before block.timestamp, 16 (getSBT) five public values or more /
///   (sbtOwners) expiry 0, 32 publicValues[4] is the issuer, 64 publicValues[2] is the action id,
///   128 publicValues[1] is the voter (evidence only: Human ID's checks never read [1], so it is
///   no condition of validity), 256 permanent store read, 512 the store says unique;
/// - per attestation asked: 1 byte of flags; with `ask.expiries`, 7 bytes: the flags, then its
///   validUntil in 6 bytes (at most 2^48 - 1). Flags: 1 exists, 2 schema id as expected, 4 attester as expected, 8 revoked,
///   16 validUntil after block.timestamp, 32 recipients[0] is the ABI string of the given
///   recipient (any letter case), 64 recipients[0] is not an ABI string at offset 32, 128
///   getAttestation reverted (an id Sign Protocol does not hold: that attestation alone is
///   unconfirmed, the call goes on);
/// - with a Passport decoder, per voter 9 bytes: its getScore (readPassports).
contract HumanIdReader {
    struct SBT {
        uint256 expiry;
        uint256[] publicValues;
        bool revoked;
    }

    struct Attestation {
        uint64 schemaId;
        uint64 linkedAttestationId;
        uint64 attestTimestamp;
        uint64 revokeTimestamp;
        address attester;
        uint64 validUntil;
        uint8 dataLocation;
        bool revoked;
        bytes[] recipients;
        bytes data;
    }

    /// One asked circuit: its id, its issuer, its permanent store (zero: none), and whether the
    /// zk-passport SBT stands in for it (gov-id).
    struct Circuit {
        bytes32 id;
        uint256 issuer;
        address store;
        bool zkPassport;
    }

    /// What every SBT read needs: the hub, the action id, the zk-passport circuit; and whether
    /// to return each SBT's expiry and each attestation's validUntil.
    struct Ask {
        address hub;
        uint256 actionId;
        Circuit passport;
        bool expiries;
    }

    /// Where and what clean hands asks: Sign Protocol, the schema id, the attester.
    struct CleanHands {
        address signProtocol;
        uint64 schemaId;
        address attester;
    }

    /// `voters`: 20 bytes each. `attestations`: 10 bytes each, the attestation id
    /// (8 bytes) and the position in `voters` of the recipient asked (2 bytes).
    /// Packed, so that 500 voters fit a node's limit on call data for a
    /// contract creation (49,152 bytes).
    constructor(
        Ask memory ask,
        Circuit[] memory circuits,
        bytes memory voters,
        CleanHands memory cleanHands,
        bytes memory attestations,
        address passportDecoder
    ) {
        uint256 passports = passportDecoder == address(0)
            ? 0
            : (voters.length / 20) * 9;
        bytes memory out = new bytes(
            size(ask, circuits, voters, attestations) + passports
        );
        assembly {
            mstore(add(out, 32), timestamp())
            mstore(add(out, 64), number())
            mstore(add(out, 96), chainid())
        }
        uint256 at = readVoters(out, ask, circuits, voters);
        readAttestations(
            out,
            at,
            ask.expiries ? 7 : 1,
            cleanHands,
            voters,
            attestations
        );
        PassportReads.readPassports(
            out,
            out.length - passports,
            passportDecoder,
            voters
        );
        assembly {
            return(add(out, 32), mload(out))
        }
    }

    /// Bytes of the answer before the Passport records.
    function size(
        Ask memory ask,
        Circuit[] memory circuits,
        bytes memory voters,
        bytes memory attestations
    ) private pure returns (uint256) {
        uint256 record = ask.expiries ? 8 : 2;
        uint256 perVoter;
        for (uint256 c = 0; c < circuits.length; c++) {
            perVoter += circuits[c].zkPassport ? 2 * record : record;
        }
        uint256 pair = ask.expiries ? 7 : 1;
        return
            96 + (voters.length / 20) * perVoter + (attestations.length / 10) * pair;
    }

    // Nothing a read decodes is kept past its flags: each read's memory is
    // given back (the free memory pointer reset), so memory, whose cost grows
    // with its square, stays small however many voters are read.

    function readVoters(
        bytes memory out,
        Ask memory ask,
        Circuit[] memory circuits,
        bytes memory voters
    ) private view returns (uint256 at) {
        uint256 free;
        assembly {
            free := mload(0x40)
        }
        at = 96;
        for (uint256 v = 0; v < voters.length / 20; v++) {
            address voter = voterAt(voters, v);
            for (uint256 c = 0; c < circuits.length; c++) {
                at = readCredential(out, at, ask, circuits[c], voter);
                assembly {
                    mstore(0x40, free)
                }
            }
        }
    }

    function readAttestations(
        bytes memory out,
        uint256 at,
        uint256 pair,
        CleanHands memory cleanHands,
        bytes memory voters,
        bytes memory attestations
    ) private view {
        uint256 free;
        assembly {
            free := mload(0x40)
        }
        for (uint256 i = 0; i < attestations.length / 10; i++) {
            uint64 id;
            uint256 position;
            assembly {
                let word := mload(add(add(attestations, 32), mul(i, 10)))
                id := shr(192, word)
                position := and(shr(176, word), 0xffff)
            }
            address recipient = voterAt(voters, position);
            (uint8 flags, uint64 validUntil) = readAttestation(
                cleanHands,
                id,
                recipient
            );
            out[at + i * pair] = bytes1(flags);
            if (pair > 1) put48(out, at + i * pair + 1, validUntil);
            assembly {
                mstore(0x40, free)
            }
        }
    }

    /// The circuit's SBT; then, while none passes, the zk-passport SBT and the permanent store.
    function readCredential(
        bytes memory out,
        uint256 at,
        Ask memory ask,
        Circuit memory circuit,
        address voter
    ) private view returns (uint256) {
        (uint256 flags, bool valid, uint256 expiry) = readSbt(
            ask,
            circuit,
            voter
        );
        uint256 primary = at;
        uint256 record = ask.expiries ? 8 : 2;
        at += record;
        if (circuit.zkPassport) {
            uint256 zk;
            uint256 zkExpiry;
            if (!valid) (zk, valid, zkExpiry) = readSbt(ask, ask.passport, voter);
            put16(out, at, zk);
            if (ask.expiries) put48(out, at + 2, zkExpiry);
            at += record;
        }
        if (!valid && circuit.store != address(0)) {
            bool unique = Store(circuit.store).isUniqueForAction(
                voter,
                ask.actionId
            );
            flags |= unique ? 768 : 256;
        }
        put16(out, primary, flags);
        if (ask.expiries) put48(out, primary + 2, expiry);
        return at;
    }

    function voterAt(
        bytes memory voters,
        uint256 index
    ) private pure returns (address voter) {
        require(index < voters.length / 20, 'no such voter');
        assembly {
            voter := shr(96, mload(add(add(voters, 32), mul(index, 20))))
        }
    }

    function put16(bytes memory out, uint256 at, uint256 value) private pure {
        out[at] = bytes1(uint8(value >> 8));
        out[at + 1] = bytes1(uint8(value));
    }

    /// `value` in 6 bytes at `at`, big-endian, at most 2^48 - 1. One word is read and written
    /// back with only those 6 bytes changed (the bytes after them, inside `out` or past it, keep
    /// their value).
    function put48(bytes memory out, uint256 at, uint256 value) private pure {
        require(at + 6 <= out.length, 'out of range');
        if (value > type(uint48).max) value = type(uint48).max;
        assembly {
            let p := add(add(out, 32), at)
            mstore(p, or(and(mload(p), shr(48, not(0))), shl(208, value)))
        }
    }

    /// One SBT's comparisons, valid when every one passes, and its expiry.
    function readSbt(
        Ask memory ask,
        Circuit memory circuit,
        address voter
    ) private view returns (uint256 flags, bool valid, uint256 expiry) {
        try Hub(ask.hub).getSBT(voter, circuit.id) returns (SBT memory sbt) {
            uint256[] memory values = sbt.publicValues;
            expiry = sbt.expiry;
            flags = 3;
            if (sbt.revoked) flags |= 4;
            if (sbt.expiry < block.timestamp) flags |= 8;
            if (values.length > 4) {
                flags |= 16;
                if (values[4] == circuit.issuer) flags |= 32;
                if (values[2] == ask.actionId) flags |= 64;
                if (values[1] == uint256(uint160(voter))) flags |= 128;
            }
            valid = (flags & 127) == 115;
        } catch {
            bool revoked;
            (expiry, revoked) = Hub(ask.hub).sbtOwners(
                keccak256(abi.encodePacked(voter, circuit.id))
            );
            flags = 1;
            if (revoked) flags |= 4;
            if (expiry < block.timestamp) flags |= 8;
            if (expiry == 0) flags |= 16;
        }
    }

    function readAttestation(
        CleanHands memory cleanHands,
        uint64 id,
        address recipient
    ) private view returns (uint8 flags, uint64 validUntil) {
        try Sign(cleanHands.signProtocol).getAttestation(id) returns (
            Attestation memory a
        ) {
            validUntil = a.validUntil;
            if (a.attestTimestamp != 0 || a.attester != address(0)) flags |= 1;
            if (a.schemaId == cleanHands.schemaId) flags |= 2;
            if (a.attester == cleanHands.attester) flags |= 4;
            if (a.revoked) flags |= 8;
            if (a.validUntil > block.timestamp) flags |= 16;
            if (a.recipients.length > 0) {
                flags |= namesRecipient(a.recipients[0], recipient);
            }
        } catch {
            flags = 128;
        }
    }

    /// 32 when `encoded` is abi.encode(string) of `recipient` as 0x and 40 hex digits (any
    /// letter case); 0 when it is another string or too short to hold one; 64 when its offset
    /// is not 32 (an ABI decoder would follow it, this does not: the caller must not guess).
    function namesRecipient(
        bytes memory encoded,
        address recipient
    ) private pure returns (uint8) {
        if (encoded.length < 64) return 0;
        uint256 offset;
        uint256 length;
        assembly {
            offset := mload(add(encoded, 32))
            length := mload(add(encoded, 64))
        }
        if (offset != 32) return 64;
        if (length != 42 || encoded.length < 106) return 0;
        if (encoded[64] != '0' || (encoded[65] != 'x' && encoded[65] != 'X')) {
            return 0;
        }
        uint160 value;
        for (uint256 i = 66; i < 106; i++) {
            uint8 c = uint8(encoded[i]);
            uint8 digit;
            if (c >= 48 && c <= 57) digit = c - 48;
            else if (c >= 97 && c <= 102) digit = c - 87;
            else if (c >= 65 && c <= 70) digit = c - 55;
            else return 0;
            value = value * 16 + digit;
        }
        return value == uint160(recipient) ? 32 : 0;
    }
}

/// Passport's scores on chain, in the reader's one call: per voter, 9 bytes at the end of the
/// answer, a status then 8 bytes. Status 1: getScore returned the value (4 decimals); 2: it
/// reverted AttestationNotFound() (no Passport on chain; also when the decoder has no code at
/// the block: none was pushed yet); 3: AttestationExpired(uint64), the value its expiry; 4: any
/// other answer (the caller fails: never a silent none).
library PassportReads {
    function readPassports(
        bytes memory out,
        uint256 at,
        address decoder,
        bytes memory voters
    ) internal view {
        if (decoder == address(0)) return;
        bool deployed = decoder.code.length > 0;
        for (uint256 v = 0; v < voters.length / 20; v++) {
            address voter;
            assembly {
                voter := shr(96, mload(add(add(voters, 32), mul(v, 20))))
            }
            (uint256 status, uint256 value) = deployed
                ? readPassport(decoder, voter)
                : (2, 0);
            out[at + v * 9] = bytes1(uint8(status));
            for (uint256 i = 0; i < 8; i++) {
                out[at + v * 9 + 8 - i] = bytes1(uint8(value >> (8 * i)));
            }
        }
    }

    function readPassport(
        address decoder,
        address voter
    ) private view returns (uint256 status, uint256 value) {
        (bool ok, bytes memory data) = decoder.staticcall(
            abi.encodeWithSelector(0xd47875d0, voter)
        );
        bytes4 selector;
        if (data.length >= 32) value = abi.decode(data, (uint256));
        if (data.length >= 4) selector = bytes4(data);
        if (!ok && data.length >= 36) {
            assembly {
                value := mload(add(data, 36))
            }
        }
        if (value > type(uint64).max) return (4, 0);
        if (ok && data.length == 32) return (1, value);
        if (!ok && data.length == 4 && selector == 0x120a2e77) return (2, 0);
        if (!ok && data.length == 36 && selector == 0x06c09405) {
            return (3, value);
        }
        return (4, 0);
    }
}

interface Hub {
    function getSBT(
        address subject,
        bytes32 circuitId
    ) external view returns (HumanIdReader.SBT memory);

    function sbtOwners(
        bytes32 id
    ) external view returns (uint256 expiry, bool revoked);
}

interface Store {
    function isUniqueForAction(
        address user,
        uint256 actionId
    ) external view returns (bool);
}

interface Sign {
    function getAttestation(
        uint64 attestationId
    ) external view returns (HumanIdReader.Attestation memory);
}
