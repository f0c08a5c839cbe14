// The shed's catalogue indexer: keeps every photo of every tool in memory (the bug), under a 192 MB heap with the
// JVM's GC log on, until the heap runs out.
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class Catalogue {
    public static void main(String[] args) {
        Map<Integer, List<byte[]>> photos = new HashMap<>();
        for (int tool = 1; tool <= 5000; tool++) {
            List<byte[]> list = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                list.add(new byte[64 * 1024]);
            }
            photos.put(tool, list);
            byte[] thumbnail = new byte[256 * 1024];  // garbage: made and dropped for every tool
            thumbnail[0] = (byte) tool;
            if (tool % 50 == 0) {
                System.out.println("indexed " + tool + " tools");
            }
        }
        System.out.println("catalogue done: " + photos.size());
    }
}
