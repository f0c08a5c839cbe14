'use strict';

const MAX = 60;

function slugify(text, { sep = '-' } = {}) {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, sep)
    .replace(new RegExp(`^${sep}|${sep}$`, 'g'), '')
    .slice(0, MAX);
}

function uniqueSlug(text, taken) {
  let slug = slugify(text);
  let n = 1;
  while (taken.has(slug)) {
    slug = `${slugify(text)}-${n}`;
  }
  return slug;
}

module.exports = { slugify, uniqueSlug, MAX };
