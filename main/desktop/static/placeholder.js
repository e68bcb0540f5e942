// Fills in the addresses main.ts passes in the query, and shows that the preload's bridge answers.
const params = new URLSearchParams(location.search);
const api = params.get('api');
const receiver = params.get('receiver');
if (api) document.getElementById('api').textContent = `POST ${api}/v1/batch`;
if (receiver) document.getElementById('receiver').textContent = `${receiver}/r/<name>`;
const line = document.getElementById('bridge');
if (window.hookbench) {
  window.hookbench.call('listDestinations', {}).then((r) => {
    line.textContent = r.ok ? `Desktop bridge connected: ${r.value.length} destination(s).` : `Desktop bridge: ${r.error.message}`;
  });
} else {
  line.textContent = 'No desktop bridge on this page.';
}
