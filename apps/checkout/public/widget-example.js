// Example glue: fills in the merchant id and shows each result. A real page writes the id in its HTML.
(function () {
  var merchant = new URLSearchParams(window.location.search).get('merchant') || '';
  document.querySelectorAll('[data-stablepay-merchant]').forEach(function (el) {
    el.setAttribute('data-stablepay-merchant', merchant);
  });
  document.addEventListener('stablepay:result', function (e) {
    document.getElementById('result').textContent = JSON.stringify(e.detail, null, 2);
  });
})();
