exports.slug = s => s.toLowerCase().replace(/ /g, '-');
