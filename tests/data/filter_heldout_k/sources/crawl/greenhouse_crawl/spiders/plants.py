"""Collects every plant's species and watering interval from the greenhouse site, for the care rota."""

import scrapy


class PlantsSpider(scrapy.Spider):
    name = "plants"
    allowed_domains = ["127.0.0.1"]

    def __init__(self, port="18977", **kwargs):
        super().__init__(**kwargs)
        self.start_urls = [f"http://127.0.0.1:{port}/"]

    def parse(self, response):
        for href in response.css("ul a::attr(href)").getall():
            if "/houses/" in href:
                yield response.follow(href, self.parse_house)
            else:
                yield response.follow(href, self.parse_other)

    def parse_house(self, response):
        house = response.url.rstrip("/").rsplit("/", 1)[1]
        self.logger.debug("house %s lists %d links", house, len(response.css("ul a")))
        for href in response.css("ul a::attr(href)").getall():
            if href.count("/") == 3:
                yield response.follow(href, self.parse_plant, cb_kwargs={"house": house})

    def parse_plant(self, response, house):
        yield {
            "house": house,
            "plant": response.url.rsplit("/", 1)[1],
            "species": response.css("p.species::text").get(),
            "water_days": int(response.css("p.water::text").get().split()[1]),
        }

    def parse_other(self, response):
        self.logger.info("page %s: %s", response.url, response.css("h1::text").get())
