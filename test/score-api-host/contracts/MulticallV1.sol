// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

/// The Multicall (v1) interface snapshot.js's `multicall` calls at each network's address in its
/// networks.json: every call must succeed, or the whole call reverts. The test host places this
/// code at that address for each eth_call to it (a state override), as the real networks have it.
contract MulticallV1 {
    struct Call {
        address target;
        bytes callData;
    }

    function aggregate(Call[] memory calls) public view returns (uint256 blockNumber, bytes[] memory returnData) {
        blockNumber = block.number;
        returnData = new bytes[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory ret) = calls[i].target.staticcall(calls[i].callData);
            require(success, "Multicall aggregate: call failed");
            returnData[i] = ret;
        }
    }
}
