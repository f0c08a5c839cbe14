export function formatTemp(c) {
  return `${c.toFixed(1)} °C`;
}

export function formatWind(ms) {
  const kn = ms / 0.514444;
  return `${ms.toFixed(1)} m/s (${Math.round(kn)} kn)`;
}

export function trend(values) {
  if (values.length < 2) return "flat";
  const d = values[values.length - 1] - values[0];
  return d > 0.5 ? "rising" : d < 0.5 ? "falling" : "flat";
}
