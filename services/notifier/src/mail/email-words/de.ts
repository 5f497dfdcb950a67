import type { EmailWords } from './types.js';

/** German (Sie), in the dashboard's and the invoices' words: Zahlung, Erstattung, Auszahlung, Wallet. */
export const de: EmailWords = {
  lang: 'de',
  labels: {
    amount: 'Betrag',
    paidTo: 'Bezahlt an',
    reference: 'Referenz',
    network: 'Netzwerk',
    transaction: 'Transaktion',
    from: 'Von',
    paymentId: 'Zahlungs-ID',
    date: 'Datum',
    customer: 'Kunde',
    sentTo: 'Gesendet an',
    refundId: 'Erstattungs-ID',
    endpoint: 'Endpunkt',
    endpointId: 'Endpunkt-ID',
    lastError: 'Letzter Fehler',
    disabledAt: 'Deaktiviert am',
    account: 'Konto',
    linkValidUntil: 'Link gültig bis',
    label: 'Bezeichnung',
    address: 'Adresse',
    usableFrom: 'Nutzbar ab',
    confirmedWith: 'Bestätigt mit',
    added: 'Hinzugefügt',
    removed: 'Entfernt',
  },
  orOpen: (url) => `Oder öffnen Sie diese Adresse: ${url}`,
  receipt: {
    theMerchant: 'den Händler',
    subject: (amount, m) => `Beleg: ${amount} an ${m} bezahlt`,
    heading: 'Zahlungsbeleg',
    intro: (amount, m) => `Ihre Zahlung von ${amount} an ${m} ist bestätigt.`,
    outro: 'Bewahren Sie diese E-Mail als Beleg auf. Fragen zur Bestellung richten Sie bitte an den Händler.',
  },
  received: {
    subject: (amount) => `Zahlung eingegangen: ${amount}`,
    heading: 'Zahlung eingegangen',
    intro: (m, amount) => `${m}, eine Zahlung von ${amount} wurde bestätigt und Ihrer Wallet gutgeschrieben.`,
  },
  refund: {
    theMerchant: 'Der Händler',
    subject: (amount) => `Erstattung gesendet: ${amount}`,
    heading: 'Ihre Erstattung wurde gesendet',
    intro: (m, amount, network) => `${m} hat ${amount} an Ihre Wallet auf ${network} erstattet.`,
  },
  endpointDisabled: {
    subject: (n) => `Webhook-Endpunkt nach ${n} Fehlschlägen in Folge deaktiviert`,
    heading: 'Ein Webhook-Endpunkt wurde deaktiviert',
    intro: (m, n) =>
      `${m}, die letzten ${n} Zustellungen an einen Ihrer Webhook-Endpunkte sind nacheinander fehlgeschlagen. Er wurde deshalb deaktiviert und erhält keine Ereignisse mehr.`,
    outro: [
      'Beheben Sie den Fehler am Endpunkt und aktivieren Sie ihn dann wieder mit PUT /merchant-webhooks/api/:id und {"is_active": true}.',
      'In der Zwischenzeit verpasste Ereignisse lassen sich mit POST /merchant-webhooks/api/:id/replay erneut senden.',
    ],
  },
  confirmation: {
    subject: 'Bestätigen Sie Ihre E-Mail-Adresse für StablePay',
    heading: 'Bestätigen Sie Ihre E-Mail-Adresse',
    intro: (m) => [
      `Willkommen bei StablePay. Bestätigen Sie über den Link unten, dass diese Adresse zu ${m} gehört.`,
      'Bis dahin erhält Ihr Konto keine Benachrichtigungen und kann nicht auszahlen.',
    ],
    action: 'E-Mail-Adresse bestätigen',
    outro: [
      'Der Link funktioniert einmal. Ist er abgelaufen, melden Sie sich im Dashboard an und fordern Sie einen neuen an.',
      'Haben Sie sich nicht registriert, ignorieren Sie diese E-Mail: Ohne diese Bestätigung wird kein Konto genutzt.',
    ],
  },
  registration: {
    subject: 'Jemand wollte sich mit Ihrer E-Mail-Adresse registrieren',
    heading: 'Eine Registrierung mit Ihrer Adresse',
    intro: (m) => [
      `Jemand hat versucht, ein StablePay-Konto mit dieser E-Mail-Adresse zu erstellen, die bereits zu ${m} gehört. Es wurde kein neues Konto erstellt.`,
      'Waren Sie das, melden Sie sich stattdessen mit Ihrem bestehenden Konto an. Kennen Sie Ihr Passwort nicht mehr, wenden Sie sich an Ihren StablePay-Betreiber, um es zurücksetzen zu lassen.',
    ],
    action: 'Anmelden',
    outro:
      'Waren Sie es nicht, ist nichts zu tun: Ihr Konto ist unverändert, und der Versuch steht in seinem Protokoll.',
  },
  stepUp: {
    mfa: 'Anmeldung mit Passwort und Code aus der Authenticator-App',
    recent_sign_in: 'eine kürzliche Anmeldung mit Passwort',
  },
  addressAdded: {
    subject: (label) => `Neue Auszahlungsadresse hinzugefügt: ${label}`,
    heading: 'Eine Auszahlungsadresse wurde hinzugefügt',
    intro: (m, from) =>
      `${m}, Ihren Auszahlungsadressen wurde eine Adresse hinzugefügt. Ab ${from} können Auszahlungen dorthin gehen.`,
    outro:
      'Haben Sie sie nicht hinzugefügt, entfernen Sie sie vorher im Dashboard (Auszahlungsadressen), ändern Sie Ihr Passwort und aktivieren Sie die Zwei-Faktor-Anmeldung.',
  },
  addressRemoved: {
    subject: (label) => `Auszahlungsadresse entfernt: ${label}`,
    heading: 'Eine Auszahlungsadresse wurde entfernt',
    intro: (m) =>
      `${m}, aus Ihren Auszahlungsadressen wurde eine Adresse entfernt. Es gehen keine Auszahlungen mehr dorthin.`,
    outro: 'Haben Sie sie nicht entfernt, ändern Sie Ihr Passwort und prüfen Sie das Protokoll im Dashboard.',
  },
};
