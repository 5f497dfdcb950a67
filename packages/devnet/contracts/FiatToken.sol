// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {FiatTokenERC20} from "./FiatTokenERC20.sol";

/**
 * @title FiatToken (devnet)
 * @notice A 6-decimal stablecoin for the local devnet that behaves as Circle's FiatToken v2.2 (USDC,
 * EURC) does for everything the platform touches: EIP-2612 permit, EIP-3009 transfer/receive/cancel
 * authorizations (both the (v,r,s) and the `bytes signature` overloads), an EIP-712 domain with
 * version "2", minters with allowances appointed by a master minter (the role a CCTP token minter
 * takes), pause, blacklist, and FiatToken's revert strings. It runs behind FiatTokenProxy and is set
 * up with `initialize`, as USDC is; one implementation serves every token of a chain.
 */
contract FiatToken is FiatTokenERC20 {
    bytes32 public constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");
    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH =
        keccak256(
            "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
        );
    bytes32 public constant RECEIVE_WITH_AUTHORIZATION_TYPEHASH =
        keccak256(
            "ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
        );
    bytes32 public constant CANCEL_AUTHORIZATION_TYPEHASH =
        keccak256("CancelAuthorization(address authorizer,bytes32 nonce)");
    bytes32 private constant EIP712_DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");

    string public name;
    string public symbol;
    uint8 public decimals;
    /// @notice ISO 4217 code of the currency the token stands for ("USD", "EUR").
    string public currency;

    mapping(address => uint256) private _permitNonces;
    mapping(address => mapping(bytes32 => bool)) private _authorizationStates;
    /// @dev FiatToken v2.2 counts its initializers (V1, V2, V2_1, V2_2): done at once here, it is 3.
    uint8 private _initializedVersion;

    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);

    /// @dev The implementation's own storage is never used: only a proxy's initialize counts.
    constructor() {
        _initializedVersion = type(uint8).max;
    }

    /**
     * @notice FiatToken's `initialize` (the same parameters), with what its V2 initializers add: the
     * EIP-712 name, and the token's own address blacklisted so that nothing can be sent to it.
     */
    function initialize(
        string memory tokenName,
        string memory tokenSymbol,
        string memory tokenCurrency,
        uint8 tokenDecimals,
        address newMasterMinter,
        address newPauser,
        address newBlacklister,
        address newOwner
    ) external {
        require(_initializedVersion == 0, "FiatToken: contract is already initialized");
        require(newMasterMinter != address(0), "FiatToken: new masterMinter is the zero address");
        require(newPauser != address(0), "FiatToken: new pauser is the zero address");
        require(newBlacklister != address(0), "FiatToken: new blacklister is the zero address");
        require(newOwner != address(0), "FiatToken: new owner is the zero address");
        name = tokenName;
        symbol = tokenSymbol;
        currency = tokenCurrency;
        decimals = tokenDecimals;
        _setRoles(newMasterMinter, newPauser, newBlacklister);
        _setOwner(newOwner);
        _blacklistUnchecked(address(this));
        _initializedVersion = 3;
    }

    /// @notice The EIP-712 domain version, as FiatToken v2 exposes it.
    function version() external pure returns (string memory) {
        return "2";
    }

    /// @dev Computed on every call, as v2.2 does: the name lives in the proxy's storage, not in code.
    // solhint-disable-next-line func-name-mixedcase
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return
            keccak256(
                abi.encode(EIP712_DOMAIN_TYPEHASH, keccak256(bytes(name)), keccak256("2"), block.chainid, address(this))
            );
    }

    // ---------------------------------------------------------------- EIP-2612

    function nonces(address owner_) external view returns (uint256) {
        return _permitNonces[owner_];
    }

    function permit(
        address owner_,
        address spender,
        uint256 value,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external whenNotPaused notBlacklisted(owner_) notBlacklisted(spender) {
        _permit(owner_, spender, value, deadline, abi.encodePacked(r, s, v));
    }

    function permit(
        address owner_,
        address spender,
        uint256 value,
        uint256 deadline,
        bytes memory signature
    ) external whenNotPaused notBlacklisted(owner_) notBlacklisted(spender) {
        _permit(owner_, spender, value, deadline, signature);
    }

    function _permit(address owner_, address spender, uint256 value, uint256 deadline, bytes memory signature) private {
        require(deadline == type(uint256).max || deadline >= block.timestamp, "FiatTokenV2: permit is expired");
        bytes32 structHash = keccak256(
            abi.encode(PERMIT_TYPEHASH, owner_, spender, value, _permitNonces[owner_]++, deadline)
        );
        require(
            SignatureChecker.isValidSignatureNow(owner_, _typedDataHash(structHash), signature),
            "EIP2612: invalid signature"
        );
        _approve(owner_, spender, value);
    }

    // ---------------------------------------------------------------- EIP-3009

    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
        return _authorizationStates[authorizer][nonce];
    }

    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external whenNotPaused notBlacklisted(from) notBlacklisted(to) {
        _transferWithAuthorization(
            TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v)
        );
    }

    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) external whenNotPaused notBlacklisted(from) notBlacklisted(to) {
        _transferWithAuthorization(
            TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature
        );
    }

    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external whenNotPaused notBlacklisted(from) notBlacklisted(to) {
        require(to == msg.sender, "FiatTokenV2: caller must be the payee");
        _transferWithAuthorization(
            RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v)
        );
    }

    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) external whenNotPaused notBlacklisted(from) notBlacklisted(to) {
        require(to == msg.sender, "FiatTokenV2: caller must be the payee");
        _transferWithAuthorization(
            RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature
        );
    }

    function cancelAuthorization(
        address authorizer,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external whenNotPaused {
        _cancelAuthorization(authorizer, nonce, abi.encodePacked(r, s, v));
    }

    function cancelAuthorization(address authorizer, bytes32 nonce, bytes memory signature) external whenNotPaused {
        _cancelAuthorization(authorizer, nonce, signature);
    }

    function _transferWithAuthorization(
        bytes32 typehash,
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) private {
        require(block.timestamp > validAfter, "FiatTokenV2: authorization is not yet valid");
        require(block.timestamp < validBefore, "FiatTokenV2: authorization is expired");
        _requireUnusedAuthorization(from, nonce);
        bytes32 structHash = keccak256(abi.encode(typehash, from, to, value, validAfter, validBefore, nonce));
        _requireValidSignature(from, structHash, signature);
        _authorizationStates[from][nonce] = true;
        emit AuthorizationUsed(from, nonce);
        _transfer(from, to, value);
    }

    function _cancelAuthorization(address authorizer, bytes32 nonce, bytes memory signature) private {
        _requireUnusedAuthorization(authorizer, nonce);
        _requireValidSignature(authorizer, keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce)), signature);
        _authorizationStates[authorizer][nonce] = true;
        emit AuthorizationCanceled(authorizer, nonce);
    }

    function _requireUnusedAuthorization(address authorizer, bytes32 nonce) private view {
        require(!_authorizationStates[authorizer][nonce], "FiatTokenV2: authorization is used or canceled");
    }

    /// @dev EOAs by ECDSA (low-s only), contract wallets by EIP-1271, as FiatToken v2.2 does.
    function _requireValidSignature(address signer, bytes32 structHash, bytes memory signature) private view {
        require(
            SignatureChecker.isValidSignatureNow(signer, _typedDataHash(structHash), signature),
            "FiatTokenV2: invalid signature"
        );
    }

    function _typedDataHash(bytes32 structHash) private view returns (bytes32) {
        return MessageHashUtils.toTypedDataHash(DOMAIN_SEPARATOR(), structHash);
    }
}
