export const formatDay = (d) => d.toISOString().slice(0, 10)
