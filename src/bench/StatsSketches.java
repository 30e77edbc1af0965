import java.util.HexFormat;

import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;

/**
 * Prints SQL that fills visit_sketch for the bench's stats scenario: for each of DAYS days ending at END (UTC),
 * one row per writer (pod) holding HLL sketches (HLL_4, lgK 12, as the app writes them) of VISITORS distinct
 * visitors that day, a tenth of them bots, half of each day's visitors seen the day before too.
 *
 *   java -cp datasketches-java.jar:datasketches-memory.jar StatsSketches.java CODE END DAYS VISITORS WRITERS
 */
public class StatsSketches {
    public static void main(String[] args) {
        String code = args[0];
        java.time.LocalDate end = java.time.LocalDate.parse(args[1]);
        int days = Integer.parseInt(args[2]);
        int visitors = Integer.parseInt(args[3]);
        int writers = Integer.parseInt(args[4]);
        HexFormat hex = HexFormat.of();
        for (int d = 0; d < days; d++) {
            java.time.LocalDate day = end.minusDays(days - 1 - d);
            StringBuilder sql = new StringBuilder(
                    "INSERT INTO visit_sketch (code, stat_date, writer, visitors, human_visitors) VALUES ");
            for (int w = 0; w < writers; w++) {
                HllSketch all = new HllSketch(12, TgtHllType.HLL_4);
                HllSketch humans = new HllSketch(12, TgtHllType.HLL_4);
                long first = (long) d * visitors / 2;
                for (long v = first; v < first + visitors; v++) {
                    if (v % writers != w) {
                        continue;
                    }
                    all.update(v);
                    if (v % 10 != 0) {
                        humans.update(v);
                    }
                }
                sql.append(w == 0 ? "" : ", ").append("('").append(code).append("', '").append(day).append("', X'")
                        .append(String.format("%016x", (long) w + 1)).append("', X'")
                        .append(hex.formatHex(all.toCompactByteArray())).append("', X'")
                        .append(hex.formatHex(humans.toCompactByteArray())).append("')");
            }
            System.out.println(sql.append(";"));
        }
    }
}
