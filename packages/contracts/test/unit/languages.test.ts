import { expect } from 'chai';
import { INVOICE_LANGUAGES } from '../../src/index.js';
import { LANGUAGE_NAMES, fillPlaceholders, pickLanguage } from '../../src/shared/languages.js';

describe('the languages the pages speak', () => {
  it('are the invoices’ five, each named in its own words', () => {
    expect(Object.keys(LANGUAGE_NAMES)).to.have.members([...INVOICE_LANGUAGES]);
    expect(LANGUAGE_NAMES.it).to.equal('Italiano');
  });

  it('picks the asked language, else the first preferred one we speak, by its base tag, else English', () => {
    expect(pickLanguage('fr', ['de-DE'])).to.equal('fr');
    expect(pickLanguage(null, ['pt-BR', 'it-IT', 'es'])).to.equal('it');
    expect(pickLanguage('ES-mx', [])).to.equal('es');
    expect(pickLanguage('pt', ['nl'])).to.equal('en');
    // Only our own keys count, never an object's inherited ones.
    expect(pickLanguage('constructor', ['toString'])).to.equal('en');
  });

  it('fills placeholders, numbers included, and leaves one without a value as it is', () => {
    expect(fillPlaceholders('{n} of {total}', { n: 3, total: '10' })).to.equal('3 of 10');
    expect(fillPlaceholders('Hello {name}', {})).to.equal('Hello {name}');
  });
});
