// Litres per bed per day from the plant's need, the bed's area and the week's forecast.

export const NEED_MM = { tomato: 6, lettuce: 4, basil: 3.5, pepper: 5, cucumber: 7 };

export function litresPerDay(bed, forecastMm = 0) {
  const need = NEED_MM[bed.crop];
  if (need === undefined) throw new Error(`unknown crop '${bed.crop}' in bed ${bed.id}`);
  const net = Math.max(0, need - forecastMm / 7);
  return Math.round(net * bed.areaM2 * 10) / 10;
}

export function schedule(beds, forecastMm) {
  return beds.map((bed) => ({ id: bed.id, litres: litresPerDay(bed, forecastMm), valve: bed.valve }));
}

export function valveMinutes(litres, flowLpm) {
  return Math.ceil(litres / flowLpm);
}
