console.log("rota")
