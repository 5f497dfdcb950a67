// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IMintBurnToken, ITokenMinterV2} from "./CctpInterfaces.sol";
import {CctpOwnable2Step, CctpPausable} from "./CctpRoles.sol";

/**
 * @title TokenMinterV2 (devnet)
 * @notice Mints and burns for the local token messenger, with Circle's V2 TokenMinterV2 interface, events
 * and revert strings: a registry of which local token stands for a remote domain's token, and a burn limit
 * per message for each local token (0 = the token cannot be burned). It must be a configured minter of
 * every token it mints or burns.
 */
contract TokenMinterV2 is ITokenMinterV2, CctpPausable {
    /// @notice Local token → the most one burn may move.
    mapping(address => uint256) public burnLimitsPerMessage;
    /// @notice keccak256(abi.encodePacked(remoteDomain, remoteToken)) → local token.
    mapping(bytes32 => address) public remoteTokensToLocalTokens;
    address public localTokenMessenger;
    address private _tokenController;

    event TokenPairLinked(address localToken, uint32 remoteDomain, bytes32 remoteToken);
    event TokenPairUnlinked(address localToken, uint32 remoteDomain, bytes32 remoteToken);
    event SetBurnLimitPerMessage(address indexed token, uint256 burnLimitPerMessage);
    event SetTokenController(address tokenController);
    event LocalTokenMessengerAdded(address localTokenMessenger);
    event LocalTokenMessengerRemoved(address localTokenMessenger);

    modifier onlyLocalTokenMessenger() {
        require(
            localTokenMessenger != address(0) && msg.sender == localTokenMessenger,
            "Caller not local TokenMessenger"
        );
        _;
    }

    modifier onlyTokenController() {
        require(msg.sender == _tokenController, "Caller is not tokenController");
        _;
    }

    modifier onlyWithinBurnLimit(address token, uint256 amount) {
        uint256 allowed = burnLimitsPerMessage[token];
        require(allowed > 0, "Burn token not supported");
        require(amount <= allowed, "Burn amount exceeds per tx limit");
        _;
    }

    /// @param owner_ Owner, pauser and token controller until handed on.
    constructor(address owner_) CctpOwnable2Step(owner_) {
        _updatePauser(owner_);
        _setTokenController(owner_);
    }

    function mint(
        uint32 sourceDomain,
        bytes32 burnToken,
        address to,
        uint256 amount
    ) external override whenNotPaused onlyLocalTokenMessenger returns (address) {
        IMintBurnToken token = IMintBurnToken(_requireLocalToken(sourceDomain, burnToken));
        require(token.mint(to, amount), "Mint operation failed");
        return address(token);
    }

    /// @notice Mints to the recipient and, second, the fee to the fee recipient.
    function mint(
        uint32 sourceDomain,
        bytes32 burnToken,
        address recipientOne,
        address recipientTwo,
        uint256 amountOne,
        uint256 amountTwo
    ) external override whenNotPaused onlyLocalTokenMessenger returns (address) {
        IMintBurnToken token = IMintBurnToken(_requireLocalToken(sourceDomain, burnToken));
        require(token.mint(recipientOne, amountOne), "First mint operation failed");
        require(token.mint(recipientTwo, amountTwo), "Second mint operation failed");
        return address(token);
    }

    /// @notice Burns what the token messenger has just transferred to this minter.
    function burn(
        address burnToken,
        uint256 burnAmount
    ) external override whenNotPaused onlyLocalTokenMessenger onlyWithinBurnLimit(burnToken, burnAmount) {
        IMintBurnToken(burnToken).burn(burnAmount);
    }

    function getLocalToken(uint32 remoteDomain, bytes32 remoteToken) external view override returns (address) {
        return remoteTokensToLocalTokens[_remoteTokenKey(remoteDomain, remoteToken)];
    }

    function tokenController() external view returns (address) {
        return _tokenController;
    }

    // ---------------------------------------------------------------- configuration

    function addLocalTokenMessenger(address newLocalTokenMessenger) external onlyOwner {
        require(newLocalTokenMessenger != address(0), "Invalid TokenMessenger address");
        require(localTokenMessenger == address(0), "Local TokenMessenger already set");
        localTokenMessenger = newLocalTokenMessenger;
        emit LocalTokenMessengerAdded(newLocalTokenMessenger);
    }

    function removeLocalTokenMessenger() external onlyOwner {
        address removed = localTokenMessenger;
        require(removed != address(0), "No local TokenMessenger is set");
        delete localTokenMessenger;
        emit LocalTokenMessengerRemoved(removed);
    }

    function setTokenController(address newTokenController) external onlyOwner {
        _setTokenController(newTokenController);
    }

    function linkTokenPair(address localToken, uint32 remoteDomain, bytes32 remoteToken) external onlyTokenController {
        bytes32 key = _remoteTokenKey(remoteDomain, remoteToken);
        require(remoteTokensToLocalTokens[key] == address(0), "Unable to link token pair");
        remoteTokensToLocalTokens[key] = localToken;
        emit TokenPairLinked(localToken, remoteDomain, remoteToken);
    }

    function unlinkTokenPair(
        address localToken,
        uint32 remoteDomain,
        bytes32 remoteToken
    ) external onlyTokenController {
        bytes32 key = _remoteTokenKey(remoteDomain, remoteToken);
        require(remoteTokensToLocalTokens[key] != address(0), "Unable to unlink token pair");
        delete remoteTokensToLocalTokens[key];
        emit TokenPairUnlinked(localToken, remoteDomain, remoteToken);
    }

    function setMaxBurnAmountPerMessage(address localToken, uint256 burnLimitPerMessage) external onlyTokenController {
        burnLimitsPerMessage[localToken] = burnLimitPerMessage;
        emit SetBurnLimitPerMessage(localToken, burnLimitPerMessage);
    }

    function _setTokenController(address newTokenController) private {
        require(newTokenController != address(0), "Invalid token controller address");
        _tokenController = newTokenController;
        emit SetTokenController(newTokenController);
    }

    function _requireLocalToken(uint32 remoteDomain, bytes32 remoteToken) private view returns (address) {
        address localToken = remoteTokensToLocalTokens[_remoteTokenKey(remoteDomain, remoteToken)];
        require(localToken != address(0), "Mint token not supported");
        return localToken;
    }

    function _remoteTokenKey(uint32 remoteDomain, bytes32 remoteToken) private pure returns (bytes32) {
        return keccak256(abi.encodePacked(remoteDomain, remoteToken));
    }
}
