import type { EmailWords } from './types.js';

/** Italian (Lei), in the dashboard's and the invoices' words: pagamento, rimborso, prelievo, wallet, esercente. */
export const it: EmailWords = {
  lang: 'it',
  labels: {
    amount: 'Importo',
    paidTo: 'Pagato a',
    reference: 'Riferimento',
    network: 'Rete',
    transaction: 'Transazione',
    from: 'Da',
    paymentId: 'ID del pagamento',
    date: 'Data',
    customer: 'Cliente',
    sentTo: 'Inviato a',
    refundId: 'ID del rimborso',
    endpoint: 'Endpoint',
    endpointId: 'ID dell’endpoint',
    lastError: 'Ultimo errore',
    disabledAt: 'Disattivato il',
    account: 'Account',
    linkValidUntil: 'Link valido fino al',
    label: 'Nome',
    address: 'Indirizzo',
    usableFrom: 'Utilizzabile dal',
    confirmedWith: 'Confermato con',
    added: 'Aggiunto il',
    removed: 'Rimosso il',
  },
  orOpen: (url) => `Oppure apra questo indirizzo: ${url}`,
  receipt: {
    theMerchant: 'l’esercente',
    subject: (amount, m) => `Ricevuta: ${amount} pagati a ${m}`,
    heading: 'Ricevuta di pagamento',
    intro: (amount, m) => `Il suo pagamento di ${amount} a ${m} è confermato.`,
    outro: 'Conservi questa e-mail come ricevuta. Per domande sull’ordine si rivolga all’esercente.',
  },
  received: {
    subject: (amount) => `Pagamento ricevuto: ${amount}`,
    heading: 'Pagamento ricevuto',
    intro: (m, amount) => `${m}, un pagamento di ${amount} è stato confermato e accreditato sul suo wallet.`,
  },
  refund: {
    theMerchant: 'L’esercente',
    subject: (amount) => `Rimborso inviato: ${amount}`,
    heading: 'Il suo rimborso è stato inviato',
    intro: (m, amount, network) => `${m} le ha rimborsato ${amount} sul suo wallet su ${network}.`,
  },
  endpointDisabled: {
    subject: (n) => `Endpoint webhook disattivato dopo ${n} errori consecutivi`,
    heading: 'Un endpoint webhook è stato disattivato',
    intro: (m, n) =>
      `${m}, gli ultimi ${n} invii a uno dei suoi endpoint webhook non sono riusciti uno dopo l’altro: per questo è stato disattivato e non riceve più eventi.`,
    outro: [
      'Corregga l’endpoint, poi lo riattivi con PUT /merchant-webhooks/api/:id e {"is_active": true}.',
      'Gli eventi persi nel frattempo possono essere inviati di nuovo con POST /merchant-webhooks/api/:id/replay.',
    ],
  },
  confirmation: {
    subject: 'Confermi il suo indirizzo e-mail per StablePay',
    heading: 'Confermi il suo indirizzo e-mail',
    intro: (m) => [
      `Le diamo il benvenuto in StablePay. Confermi che questo indirizzo appartiene a ${m} seguendo il link qui sotto.`,
      'Finché non è confermato, il suo account non riceve notifiche e non può effettuare prelievi.',
    ],
    action: 'Conferma indirizzo e-mail',
    outro: [
      'Il link funziona una sola volta. Se è scaduto, acceda alla dashboard e ne richieda uno nuovo.',
      'Se non si è registrato, ignori questa e-mail: nessun account viene usato senza questa conferma.',
    ],
  },
  registration: {
    subject: 'Qualcuno ha tentato di registrarsi con il suo indirizzo e-mail',
    heading: 'Una registrazione con il suo indirizzo',
    intro: (m) => [
      `Qualcuno ha tentato di creare un account StablePay con questo indirizzo e-mail, che appartiene già a ${m}. Non è stato creato alcun nuovo account.`,
      'Se è stato lei, acceda invece con il suo account esistente. Se non ricorda più la password, contatti il suo operatore StablePay per farla reimpostare.',
    ],
    action: 'Accedi',
    outro:
      'Se non è stato lei, non deve fare nulla: il suo account non è cambiato e il tentativo è nel registro attività.',
  },
  stepUp: {
    mfa: 'accesso con password e codice di autenticazione',
    recent_sign_in: 'un accesso recente con password',
  },
  addressAdded: {
    subject: (label) => `Nuovo indirizzo di prelievo aggiunto: ${label}`,
    heading: 'È stato aggiunto un indirizzo di prelievo',
    intro: (m, from) =>
      `${m}, è stato aggiunto un indirizzo ai suoi indirizzi di prelievo. Dal ${from} i prelievi potranno essere inviati lì.`,
    outro:
      'Se non l’ha aggiunto lei, lo rimuova prima di allora nella dashboard (Indirizzi di prelievo), cambi la password e attivi l’accesso a due fattori.',
  },
  addressRemoved: {
    subject: (label) => `Indirizzo di prelievo rimosso: ${label}`,
    heading: 'È stato rimosso un indirizzo di prelievo',
    intro: (m) =>
      `${m}, è stato rimosso un indirizzo dai suoi indirizzi di prelievo. Nessun prelievo verrà più inviato lì.`,
    outro: 'Se non l’ha rimosso lei, cambi la password e controlli il registro attività nella dashboard.',
  },
};
