package app;

import java.util.List;
import java.util.Map;

public class Main {
    public static void main(String[] args) {
        Inventory inv = new Inventory();
        inv.add("bolt", 12);
        int count = inv.count("bolt")
        System.out.println("bolts: " + count);
        List<String> names = inv.names();
        String first = names.get(0).toUpperCase(Locale.ROOT);
    }
}
