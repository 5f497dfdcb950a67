import type { Messages } from './en.js';

/** The page's words in German, loaded only when the customer reads German. */
export const de: Messages = {
  topUpTitle: 'Ein Teil Ihrer Zahlung ist eingegangen',
  topUpReceived: '{received} von {amount} {token} erhalten.',
  topUpMissing:
    'Senden Sie die fehlenden {due} {token} von derselben Wallet ({account}), bevor die Sitzung abläuft.',
  topUpSend: '{due} {token} senden',
  topUpWrongAccount:
    'Die verbundene Wallet ({connected}) hat diese Zahlung nicht geleistet, und nur die zahlende Wallet kann den Rest senden. Bitte wechseln Sie in Ihrer Wallet zu {account}.',
  topUpVerifying: 'Ihre Nachzahlung wurde gesendet. Warte auf die Bestätigung des Netzwerks…',
  title: 'Zahlung',
  payTo: 'An {merchant} zahlen',
  amount: 'Betrag',
  amountHint: 'Zwischen 0,01 und 1.000.000, höchstens 6 Nachkommastellen',
  amountInvalid: 'Geben Sie einen Betrag zwischen 0,01 und 1.000.000 mit höchstens 6 Nachkommastellen ein.',
  email: 'E-Mail für Ihre Quittung',
  emailInvalid: 'Geben Sie eine gültige E-Mail-Adresse ein.',
  timeLeft: 'Verbleibende Zeit',
  expiresIn: 'Noch {time} zum Bezahlen',
  loading: 'Wird geladen…',
  notFound: 'Dieser Zahlungslink ist ungültig.',
  loadFailed: 'Die Zahlungsseite konnte nicht geladen werden. Prüfen Sie Ihre Verbindung und laden Sie neu.',
  expired: 'Diese Bezahlsitzung ist abgelaufen. Es wurde nichts abgebucht.',
  expiredWhilePaying:
    'Die Bezahlsitzung ist während der Zahlung abgelaufen. Falls Ihre Überweisung durchging, wenden Sie sich mit dem Transaktionshash an den Händler.',
  complete: 'Diese Bezahlsitzung ist bereits bezahlt.',
  backToShop: 'Zurück zum Shop',
  cancel: 'Abbrechen und zum Shop zurückkehren',
  connect: 'Wallet verbinden',
  connecting: 'Warte auf Ihre Wallet…',
  connected: 'Verbunden: {account}',
  chooseWay: 'Zahlungsweg wählen',
  balance: 'Guthaben: {amount} {token}',
  sameChain: '{token} auf {chain}',
  crossChain: '{token} auf {chain}, übertragen nach {dest} (CCTP)',
  notEnough: 'Nicht genug {token}',
  noWay: 'Ihre Wallet hat in keinem unterstützten Netzwerk genug {token}.',
  pay: '{amount} {token} zahlen',
  payWithQr: 'Mit einer anderen Wallet zahlen',
  qrIntro:
    'Senden Sie genau diesen Betrag von einer beliebigen Wallet. Diese Seite erkennt die Überweisung selbst.',
  qrNetwork: 'Netzwerk',
  qrToken: 'Token',
  qrAddress: 'Adresse des Händlers',
  qrAmount: 'Betrag',
  qrCode: 'Zahlungs-QR-Code (EIP-681) über {amount} {token} auf {chain}',
  qrWaiting: 'Warte auf Ihre Überweisung…',
  qrNeedsAmount: 'Geben Sie zuerst den Betrag und Ihre E-Mail ein.',
  qrShow: 'Zahlungscode anzeigen',
  copy: 'Kopieren',
  copied: 'Kopiert',
  noWallet: 'Keine Browser-Wallet gefunden. Zahlen Sie, indem Sie den Code mit Ihrer Wallet-App scannen.',
  stepSwitch: 'Wallet auf {chain} umstellen',
  stepProof: 'Zahlungsnachweis signieren',
  stepTransfer: '{amount} {token} senden',
  stepApprove: 'Der Bridge erlauben, {amount} USDC auszugeben',
  stepBurn: '{amount} USDC auf {chain} verbrennen',
  stepAttest: 'Auf Circles Bestätigung warten',
  stepMint: 'USDC auf {chain} empfangen',
  stepConfirm: 'Bestätigung im Netzwerk',
  stepRecord: 'Zahlung erfassen',
  stepSettle: 'Warten, bis der Händler sie erhält',
  viewTx: 'Transaktion {hash}',
  paid: 'Bezahlt. Vielen Dank!',
  redirecting: 'Sie werden zum Shop zurückgeleitet…',
  errRejected:
    'Sie haben die Anfrage in Ihrer Wallet abgelehnt. Es wurde nichts gesendet; Sie können es erneut versuchen.',
  errWrongNetwork:
    'Ihre Wallet konnte nicht zu {chain} wechseln. Wechseln Sie von Hand und versuchen Sie es erneut.',
  errBalance: 'Ihre Wallet hat {balance} {token} auf {chain}, weniger als {amount}.',
  errFailed:
    'Die Zahlung konnte nicht abgeschlossen werden. Versuchen Sie es erneut; wenn es wieder fehlschlägt, wenden Sie sich an den Händler.',
  errReverted:
    'Die Transaktion ist im Netzwerk fehlgeschlagen. Es wurde nichts gesendet; versuchen Sie es erneut.',
  errPaymentFailed: 'Das Netzwerk hat die Zahlung nicht bestätigt. Bitte wenden Sie sich an den Händler.',
  retry: 'Erneut versuchen',
  resume: 'Ihre Zahlung wird fortgesetzt…',
  language: 'Sprache',
  widgetDone: 'Zahlung abgeschlossen',
  close: 'Schließen',
  fundingLegend: 'Wie die Zahlung gesendet wird',
  fundingTransfer: 'Eine Transaktion senden',
  fundingTransferHint: 'Ihre Wallet zahlt die Netzwerkgebühr in {native}.',
  fundingSignature: 'Mit einer Signatur bezahlen',
  fundingSignatureHint:
    'Kein {native} nötig: Sie signieren einmal, die Netzwerkgebühr wird in {token} bezahlt.',
  gasShort: 'Ihre Wallet hat zu wenig {native} auf {chain}, um selbst eine Netzwerkgebühr zu zahlen.',
  feesTitle: 'Was Sie autorisieren',
  feesLoading: 'Gebühren werden abgefragt…',
  feeAmount: 'Zahlung',
  feeNetwork: 'Netzwerkgebühr',
  feeCctp: 'Brückengebühr (CCTP)',
  feeInTotal: 'Die Gebühren sind in Ihrer Summe enthalten.',
  feeByMerchant: 'Der Händler zahlt die Gebühren; Sie autorisieren nur die Zahlung.',
  feeTotal: 'Summe, die Sie autorisieren',
  feeTotalPaid: 'Bezahlte Summe',
  paySign: 'Signieren und {amount} {token} zahlen',
  stepSign: 'Die Zahlung von {amount} {token} in Ihrer Wallet signieren',
  stepRelay: 'Die Zahlung wird für Sie auf {chain} gesendet',
  errGas:
    'Ihre Wallet hat zu wenig {native} auf {payChain}, um die Netzwerkgebühr zu zahlen. Bezahlen Sie stattdessen mit einer Signatur: Sie brauchen kein {native}, die Gebühr wird in {token} bezahlt.',
  useSignature: 'Stattdessen mit einer Signatur bezahlen',
  errRateLimited:
    'Zu viele Versuche in kurzer Zeit. Warten Sie {minutes} Min. und versuchen Sie es dann erneut.',
  errQuoteExpired:
    'Die Gebühren wurden während Ihrer Zahlung aktualisiert. Prüfen Sie die neue Summe und signieren Sie erneut.',
  refusedSignature:
    'Die Signatur Ihrer Wallet passt nicht zu dieser Zahlung. Es wurde nichts gesendet; bitte signieren Sie erneut.',
  refusedBalance:
    'Ihre Wallet hat weniger {token} als die zu autorisierende Summe. Es wurde nichts gesendet; laden Sie {token} auf oder wählen Sie eine andere Zahlungsart.',
  refusedNonceUsed:
    'Dieser Checkout wurde bereits mit einer Signatur Ihrer Wallet bezahlt. Laden Sie die Seite neu, um die Zahlung zu sehen.',
  refusedStale:
    'Die signierte Zahlung passt nicht mehr zu diesem Checkout. Es wurde nichts gesendet; laden Sie die Seite neu und signieren Sie erneut.',
  refusedNotYetValid:
    'Ihre Signatur ist noch nicht gültig. Prüfen Sie die Uhrzeit Ihres Geräts und signieren Sie erneut.',
  refusedExpired:
    'Ihre Signatur ist abgelaufen, bevor sie gesendet werden konnte. Es wurde nichts abgebucht; bitte signieren Sie erneut.',
  refusedToken:
    'Das Bezahlen mit Signatur ist für {token} auf {payChain} nicht verfügbar. Senden Sie stattdessen eine Transaktion oder zahlen Sie mit einer anderen Wallet.',
  refusedBudget:
    'Der Händler nimmt heute keine Zahlungen per Signatur mehr an. Senden Sie stattdessen eine Transaktion oder zahlen Sie mit einer anderen Wallet.',
  refusedRelayLow:
    'Zahlungen per Signatur sind für einige Minuten pausiert. Versuchen Sie es in {minutes} Min. erneut oder senden Sie eine Transaktion.',
  receiptTitle: 'Beleg',
  refusedByToken:
    'Der Token lehnt diese Überweisung ab (er ist pausiert oder eine Adresse ist vom Herausgeber gesperrt). Es wurde nichts gesendet; zahlen Sie mit einer anderen Wallet oder wenden Sie sich an den Händler.',
  emailRequired: 'Pflichtfeld',
  emailHint: 'Hierhin senden wir Ihren Beleg; wir nutzen sie auch, falls eine Erstattung nötig wird.',
  feeEstimate: 'Netzwerkgebühr etwa {fee}',
  bridgeEstimate: 'Brückengebühr höchstens {fee}',
  feeBySignature: 'Gebühren in {token}, unten aufgeführt, bevor Sie signieren',
  timeEstimate: 'etwa {time}',
  seconds: '{n} s',
  minutes: '{n} Min.',
  qrTagged:
    'Die letzten Stellen des Betrags ({tag} {token}) kennzeichnen diese Zahlung als Ihre; senden Sie daher genau diesen Betrag.',
  copyAmount: 'Betrag kopieren',
  copyToken: 'Adresse des Tokens kopieren',
  copyAddress: 'Adresse des Händlers kopieren',
  openInWallet: 'In der Wallet-App öffnen',
};
