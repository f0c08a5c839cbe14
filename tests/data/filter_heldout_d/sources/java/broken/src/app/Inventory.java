package app;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class Inventory {
    private final Map<String, Integer> stock = new HashMap<>();

    public void add(String sku, int qty) {
        stock.merge(sku, qty, Integer::sum);
    }

    public int count(String sku) {
        return stock.getOrDefault(sku, "0");
    }

    public List<String> names() {
        List<String> out = new ArrayList<>(stock.keySet());
        out.sort(null);
        return out;
    }

    public long total() {
        long sum = 0;
        for (int q : stock.values()) sum += q;
        return sum
    }
}
