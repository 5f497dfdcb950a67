/** An entry of the withdrawal address book. */
export interface WithdrawalAddressRecord {
  id: string;
  merchantId: string;
  /** EIP-55 checksummed */
  address: string;
  label: string;
  createdAt: Date;
  usableFrom: Date;
  removedAt: Date | null;
  /** its hold has passed (by the database's clock) */
  usable: boolean;
}
