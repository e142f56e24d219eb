// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title HumanIdReader: the human-id strategy's one eth_call.
/// @notice Never deployed. `eth_call` with no `to` runs this constructor at the asked block; it reads
/// what each voter still needs and returns the words below (assembly `return`), so one request
/// answers every voter of a chunk. Judging stays in TypeScript (./rules); the reader only decides
/// which reads to skip (a fallback is read only when the SBT before it is not valid).
///
/// Returned words, 32 bytes each:
/// - block.timestamp, block.number, block.chainid;
/// - per voter, per asked circuit: an SBT record, then (for a circuit with `zkPassport`) the
///   zk-passport SBT record. SBT record: flags, getSBT expiry, publicValues[1], [2], [4],
///   sbtOwners expiry. Flags: 1 read, 2 getSBT succeeded, 4 getSBT revoked, 8 sbtOwners read,
///   16 sbtOwners revoked, 32 permanent store read, 64 permanent store says unique, bits 8 and up
///   the number of public values;
/// - per attestation id: schemaId, attestTimestamp, attester, validUntil, revoked, number of
///   recipients, length of recipients[0], then its first 128 bytes (4 words).
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

    uint256 private constant SBT_WORDS = 6;
    uint256 private constant ATTESTATION_WORDS = 11;

    constructor(
        address hub,
        address signProtocol,
        uint256 actionId,
        Circuit[] memory circuits,
        Circuit memory passport,
        address[] memory voters,
        uint64[] memory attestationIds
    ) {
        uint256 perVoter;
        for (uint256 c = 0; c < circuits.length; c++) {
            perVoter += circuits[c].zkPassport ? 2 * SBT_WORDS : SBT_WORDS;
        }
        uint256 words = 3 +
            voters.length *
            perVoter +
            attestationIds.length *
            ATTESTATION_WORDS;
        uint256[] memory out = new uint256[](words);
        out[0] = block.timestamp;
        out[1] = block.number;
        out[2] = block.chainid;
        uint256 at = 3;
        for (uint256 v = 0; v < voters.length; v++) {
            for (uint256 c = 0; c < circuits.length; c++) {
                at = readCredential(
                    out,
                    at,
                    hub,
                    actionId,
                    circuits[c],
                    passport,
                    voters[v]
                );
            }
        }
        for (uint256 i = 0; i < attestationIds.length; i++) {
            readAttestation(out, at, signProtocol, attestationIds[i]);
            at += ATTESTATION_WORDS;
        }
        assembly {
            return(add(out, 32), mul(mload(out), 32))
        }
    }

    /// The circuit's SBT; then, while nothing is valid, the zk-passport SBT and the permanent store.
    function readCredential(
        uint256[] memory out,
        uint256 at,
        address hub,
        uint256 actionId,
        Circuit memory circuit,
        Circuit memory passport,
        address voter
    ) private view returns (uint256) {
        uint256 primary = at;
        bool valid = readSbt(out, primary, hub, circuit, actionId, voter);
        at += SBT_WORDS;
        if (circuit.zkPassport) {
            if (!valid) valid = readSbt(out, at, hub, passport, actionId, voter);
            at += SBT_WORDS;
        }
        if (!valid && circuit.store != address(0)) {
            bool unique = Store(circuit.store).isUniqueForAction(voter, actionId);
            out[primary] |= unique ? 96 : 32;
        }
        return at;
    }

    /// Reads one SBT into the record at `at`; true when the reader sees it valid (the same checks
    /// as the rule, so the fallbacks are skipped only when the rule will count this SBT).
    function readSbt(
        uint256[] memory out,
        uint256 at,
        address hub,
        Circuit memory circuit,
        uint256 actionId,
        address voter
    ) private view returns (bool) {
        try Hub(hub).getSBT(voter, circuit.id) returns (SBT memory sbt) {
            uint256[] memory values = sbt.publicValues;
            uint256 n = values.length;
            out[at] = 3 | (sbt.revoked ? 4 : 0) | (n << 8);
            out[at + 1] = sbt.expiry;
            if (n > 1) out[at + 2] = values[1];
            if (n > 2) out[at + 3] = values[2];
            if (n > 4) out[at + 4] = values[4];
            return
                !sbt.revoked &&
                sbt.expiry >= block.timestamp &&
                n > 4 &&
                values[4] == circuit.issuer &&
                values[2] == actionId &&
                values[1] == uint256(uint160(voter));
        } catch {
            (uint256 expiry, bool revoked) = Hub(hub).sbtOwners(
                keccak256(abi.encodePacked(voter, circuit.id))
            );
            out[at] = 9 | (revoked ? 16 : 0);
            out[at + 5] = expiry;
            return false;
        }
    }

    function readAttestation(
        uint256[] memory out,
        uint256 at,
        address signProtocol,
        uint64 id
    ) private view {
        Attestation memory a = Sign(signProtocol).getAttestation(id);
        out[at] = a.schemaId;
        out[at + 1] = a.attestTimestamp;
        out[at + 2] = uint256(uint160(a.attester));
        out[at + 3] = a.validUntil;
        out[at + 4] = a.revoked ? 1 : 0;
        out[at + 5] = a.recipients.length;
        if (a.recipients.length == 0) return;
        bytes memory first = a.recipients[0];
        out[at + 6] = first.length;
        for (uint256 w = 0; w < 4 && w * 32 < first.length; w++) {
            uint256 word;
            assembly {
                word := mload(add(add(first, 32), mul(w, 32)))
            }
            // Bytes past the end of recipients[0] are zero, not whatever memory follows.
            uint256 left = first.length - w * 32;
            if (left < 32) word &= ~(type(uint256).max >> (left * 8));
            out[at + 7 + w] = word;
        }
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
