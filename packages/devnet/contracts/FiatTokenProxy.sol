// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/**
 * @title FiatTokenProxy (devnet)
 * @notice The upgradeable proxy in front of FiatToken, as Circle's FiatTokenProxy is in front of USDC:
 * an admin who can read the implementation, upgrade it and hand the admin role on, and who can do
 * nothing else; every other caller is forwarded to the implementation. Keeping the admin out of the
 * token's functions means no selector of the proxy can shadow one of the token's for a user.
 * @dev EIP-1967 slots (block explorers and tooling find the implementation there) instead of the
 * older ZeppelinOS slots of Circle's proxy; the behaviour and revert strings are Circle's. The admin
 * and the initialization call are constructor arguments because the devnet deploys through a CREATE2
 * factory, whose address would otherwise become the admin, and so that no one can initialize a
 * deployed proxy before its deployer does.
 */
contract FiatTokenProxy {
    /// @dev bytes32(uint256(keccak256("eip1967.proxy.implementation")) - 1)
    bytes32 private constant IMPLEMENTATION_SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    /// @dev bytes32(uint256(keccak256("eip1967.proxy.admin")) - 1)
    bytes32 private constant ADMIN_SLOT = 0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103;

    event Upgraded(address indexed implementation);
    event AdminChanged(address previousAdmin, address newAdmin);

    constructor(address implementation_, address admin_, bytes memory initialization) payable {
        require(admin_ != address(0), "Cannot change the admin of a proxy to the zero address");
        _setImplementation(implementation_);
        _setAdmin(admin_);
        emit AdminChanged(address(0), admin_);
        if (initialization.length > 0) _delegateCall(implementation_, initialization);
    }

    /// @dev The admin is answered by the proxy; anyone else is forwarded, as if the function were not here.
    modifier ifAdmin() {
        if (msg.sender == _admin()) {
            _;
        } else {
            _fallback();
        }
    }

    function admin() external ifAdmin returns (address) {
        return _admin();
    }

    function implementation() external ifAdmin returns (address) {
        return _implementation();
    }

    function changeAdmin(address newAdmin) external ifAdmin {
        require(newAdmin != address(0), "Cannot change the admin of a proxy to the zero address");
        emit AdminChanged(_admin(), newAdmin);
        _setAdmin(newAdmin);
    }

    function upgradeTo(address newImplementation) external ifAdmin {
        _setImplementation(newImplementation);
    }

    /// @notice Upgrades and calls the new implementation in one transaction (a V2 initializer, say).
    function upgradeToAndCall(address newImplementation, bytes calldata data) external payable ifAdmin {
        _setImplementation(newImplementation);
        _delegateCall(newImplementation, data);
    }

    fallback() external payable {
        _fallback();
    }

    receive() external payable {
        _fallback();
    }

    function _fallback() private {
        require(msg.sender != _admin(), "Cannot call fallback function from the proxy admin");
        address target = _implementation();
        assembly {
            calldatacopy(0, 0, calldatasize())
            let result := delegatecall(gas(), target, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch result
            case 0 {
                revert(0, returndatasize())
            }
            default {
                return(0, returndatasize())
            }
        }
    }

    /// @dev A failed call reverts with the implementation's own reason.
    function _delegateCall(address target, bytes memory data) private {
        (bool ok, bytes memory result) = target.delegatecall(data);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
    }

    function _implementation() private view returns (address impl) {
        bytes32 slot = IMPLEMENTATION_SLOT;
        assembly {
            impl := sload(slot)
        }
    }

    function _setImplementation(address newImplementation) private {
        require(newImplementation.code.length > 0, "Cannot set a proxy implementation to a non-contract address");
        bytes32 slot = IMPLEMENTATION_SLOT;
        assembly {
            sstore(slot, newImplementation)
        }
        emit Upgraded(newImplementation);
    }

    function _admin() private view returns (address adm) {
        bytes32 slot = ADMIN_SLOT;
        assembly {
            adm := sload(slot)
        }
    }

    function _setAdmin(address newAdmin) private {
        bytes32 slot = ADMIN_SLOT;
        assembly {
            sstore(slot, newAdmin)
        }
    }
}
