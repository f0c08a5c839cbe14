export const renderRota = (s) => s.map(x => x.site).join("")
