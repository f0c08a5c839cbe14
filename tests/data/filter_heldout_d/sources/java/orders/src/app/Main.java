package app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

public class Main {
    static List<String> readOrders(Path path) {
        try {
            return Files.readAllLines(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read orders from " + path, e);
        }
    }

    static int parseQty(String line) {
        String[] parts = line.split(";");
        return Integer.parseInt(parts[2].trim());
    }

    public static void main(String[] args) {
        List<String> lines = readOrders(Path.of("orders.csv"));
        int total = 0;
        for (int i = 1; i < lines.size(); i++) {
            try {
                total += parseQty(lines.get(i));
            } catch (NumberFormatException e) {
                throw new IllegalStateException("orders.csv line " + (i + 1) + ": bad quantity", e);
            }
        }
        System.out.println("total qty " + total);
    }
}
