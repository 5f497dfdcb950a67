import type { EmailWords } from './types.js';

/** French (vous), in the dashboard's and the invoices' words: paiement, remboursement, retrait, portefeuille. */
export const fr: EmailWords = {
  lang: 'fr',
  labels: {
    amount: 'Montant',
    paidTo: 'Payé à',
    reference: 'Référence',
    network: 'Réseau',
    transaction: 'Transaction',
    from: 'De',
    paymentId: 'Identifiant du paiement',
    date: 'Date',
    customer: 'Client',
    sentTo: 'Envoyé à',
    refundId: 'Identifiant du remboursement',
    endpoint: 'Endpoint',
    endpointId: 'Identifiant de l’endpoint',
    lastError: 'Dernière erreur',
    disabledAt: 'Désactivé le',
    account: 'Compte',
    linkValidUntil: 'Lien valable jusqu’au',
    label: 'Libellé',
    address: 'Adresse',
    usableFrom: 'Utilisable à partir du',
    confirmedWith: 'Confirmé par',
    added: 'Ajoutée le',
    removed: 'Supprimée le',
  },
  orOpen: (url) => `Ou ouvrez cette adresse\u00a0: ${url}`,
  receipt: {
    theMerchant: 'le marchand',
    subject: (amount, m) => `Reçu\u00a0: ${amount} payés à ${m}`,
    heading: 'Reçu de paiement',
    intro: (amount, m) => `Votre paiement de ${amount} à ${m} est confirmé.`,
    outro: 'Conservez cet e-mail comme reçu. Pour toute question sur la commande, adressez-vous au marchand.',
  },
  received: {
    subject: (amount) => `Paiement reçu\u00a0: ${amount}`,
    heading: 'Paiement reçu',
    intro: (m, amount) => `${m}, un paiement de ${amount} a été confirmé et crédité sur votre portefeuille.`,
  },
  refund: {
    theMerchant: 'Le marchand',
    subject: (amount) => `Remboursement envoyé\u00a0: ${amount}`,
    heading: 'Votre remboursement a été envoyé',
    intro: (m, amount, network) =>
      `${m} vous a remboursé ${amount} sur votre portefeuille, sur le réseau ${network}.`,
  },
  endpointDisabled: {
    subject: (n) => `Endpoint de webhook désactivé après ${n} échecs consécutifs`,
    heading: 'Un endpoint de webhook a été désactivé',
    intro: (m, n) =>
      `${m}, les ${n} derniers envois vers l’un de vos endpoints de webhook ont échoué à la suite\u00a0: il a donc été désactivé et ne reçoit plus d’événements.`,
    outro: [
      'Corrigez l’endpoint, puis réactivez-le avec PUT /merchant-webhooks/api/:id et {"is_active": true}.',
      'Les événements manqués entre-temps peuvent être renvoyés avec POST /merchant-webhooks/api/:id/replay.',
    ],
  },
  confirmation: {
    subject: 'Confirmez votre adresse e-mail pour StablePay',
    heading: 'Confirmez votre adresse e-mail',
    intro: (m) => [
      `Bienvenue sur StablePay. Confirmez que cette adresse appartient à ${m} en suivant le lien ci-dessous.`,
      'Tant qu’elle n’est pas confirmée, votre compte ne reçoit aucune notification et ne peut pas effectuer de retrait.',
    ],
    action: 'Confirmer l’adresse e-mail',
    outro: [
      'Le lien ne fonctionne qu’une fois. S’il a expiré, connectez-vous au tableau de bord et demandez-en un nouveau.',
      'Si vous ne vous êtes pas inscrit, ignorez cet e-mail\u00a0: aucun compte n’est utilisé sans cette confirmation.',
    ],
  },
  registration: {
    subject: 'Quelqu’un a tenté de s’inscrire avec votre adresse e-mail',
    heading: 'Une inscription avec votre adresse',
    intro: (m) => [
      `Quelqu’un a tenté de créer un compte StablePay avec cette adresse e-mail, qui appartient déjà à ${m}. Aucun nouveau compte n’a été créé.`,
      'Si c’était vous, connectez-vous plutôt avec votre compte existant. Si vous ne connaissez plus votre mot de passe, contactez votre opérateur StablePay pour le faire réinitialiser.',
    ],
    action: 'Se connecter',
    outro:
      'Si ce n’était pas vous, vous n’avez rien à faire\u00a0: votre compte est inchangé et la tentative figure dans son journal d’audit.',
  },
  stepUp: {
    mfa: 'connexion par mot de passe et code d’authentification',
    recent_sign_in: 'une connexion récente par mot de passe',
  },
  addressAdded: {
    subject: (label) => `Nouvelle adresse de retrait ajoutée\u00a0: ${label}`,
    heading: 'Une adresse de retrait a été ajoutée',
    intro: (m, from) =>
      `${m}, une adresse a été ajoutée à vos adresses de retrait. Des retraits pourront y être envoyés à partir du ${from}.`,
    outro:
      'Si vous ne l’avez pas ajoutée, supprimez-la d’ici là dans le tableau de bord (Adresses de retrait), changez votre mot de passe et activez la connexion à deux facteurs.',
  },
  addressRemoved: {
    subject: (label) => `Adresse de retrait supprimée\u00a0: ${label}`,
    heading: 'Une adresse de retrait a été supprimée',
    intro: (m) =>
      `${m}, une adresse a été supprimée de vos adresses de retrait. Plus aucun retrait n’y sera envoyé.`,
    outro:
      'Si vous ne l’avez pas supprimée, changez votre mot de passe et consultez le journal d’audit dans le tableau de bord.',
  },
};
