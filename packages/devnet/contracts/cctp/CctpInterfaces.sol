// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice What the message transmitter calls on a message's recipient (the token messenger).
interface IMessageHandlerV2 {
    function handleReceiveFinalizedMessage(
        uint32 sourceDomain,
        bytes32 sender,
        uint32 finalityThresholdExecuted,
        bytes calldata messageBody
    ) external returns (bool);

    function handleReceiveUnfinalizedMessage(
        uint32 sourceDomain,
        bytes32 sender,
        uint32 finalityThresholdExecuted,
        bytes calldata messageBody
    ) external returns (bool);
}

/// @notice The message transmitter as the token messenger uses it to send.
interface IRelayerV2 {
    function sendMessage(
        uint32 destinationDomain,
        bytes32 recipient,
        bytes32 destinationCaller,
        uint32 minFinalityThreshold,
        bytes calldata messageBody
    ) external;
}

/// @notice The part of FiatToken the token messenger and minter rely on.
interface IMintBurnToken {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);

    function mint(address to, uint256 amount) external returns (bool);

    function burn(uint256 amount) external;
}

interface ITokenMinterV2 {
    function mint(uint32 sourceDomain, bytes32 burnToken, address to, uint256 amount) external returns (address);

    function mint(
        uint32 sourceDomain,
        bytes32 burnToken,
        address recipientOne,
        address recipientTwo,
        uint256 amountOne,
        uint256 amountTwo
    ) external returns (address);

    function burn(address burnToken, uint256 burnAmount) external;

    function getLocalToken(uint32 remoteDomain, bytes32 remoteToken) external view returns (address);
}
