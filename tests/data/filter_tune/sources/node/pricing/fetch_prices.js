async function fetchPrices(region) {
  const res = { ok: false, status: 503 };
  if (!res.ok) throw new Error(`price service returned ${res.status} for region ${region}`);
}

console.log('refreshing prices for 3 regions');
fetchPrices('eu-west');
