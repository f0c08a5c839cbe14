import { renderRota, shortShifts } from './rota.js'
import { formatDay } from './format.js'
import logo from './logo.svg'
document.querySelector('#app').innerHTML = `<img src="${logo}">` + renderRota([]) + formatDay(new Date())
console.log(shortShifts)
