// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title Multicall3, the parts this package uses, with the canonical ABI
/// (deployed at 0xcA11bde05977b3631167028862bE2a173976CA11 on every chain that matters).
/// @notice Placed at the canonical address of the local chain and of the test chains.
contract Multicall3 {
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    /// Calls each target; a call with allowFailure may fail alone, any other failure reverts all.
    function aggregate3(Call3[] calldata calls) public payable returns (Result[] memory returnData) {
        uint256 length = calls.length;
        returnData = new Result[](length);
        for (uint256 i = 0; i < length; i++) {
            Call3 calldata call = calls[i];
            Result memory result = returnData[i];
            (result.success, result.returnData) = call.target.call(call.callData);
            require(result.success || call.allowFailure, "Multicall3: call failed");
        }
    }

    function getBlockNumber() public view returns (uint256) {
        return block.number;
    }

    function getCurrentBlockTimestamp() public view returns (uint256) {
        return block.timestamp;
    }

    function getChainId() public view returns (uint256) {
        return block.chainid;
    }
}
