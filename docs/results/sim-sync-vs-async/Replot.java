import io.pfabric.sim.SyncRun;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Redraw a sync sweep's plots from its summary.csv (args: dir, topo, flows, control delay ns). */
public class Replot
{
    public static void main(final String[] args) throws Exception
    {
        final Path dir = Path.of(args[0]);
        final Class<?> sweep = Class.forName("io.pfabric.cli.SyncSweep");
        final Class<?> rowClass = Class.forName("io.pfabric.cli.SyncSweep$Row");
        final Constructor<?> row = rowClass.getDeclaredConstructor(String.class, String.class, double.class,
            SyncRun.Metrics.class);
        row.setAccessible(true);
        final Method plot = sweep.getDeclaredMethod("plot", List.class, String.class, String.class, String.class,
            Path.class);
        plot.setAccessible(true);
        final List<Object> rows = new ArrayList<>();
        final List<String> lines = Files.readAllLines(dir.resolve("summary.csv"));
        final List<String> pairs = new ArrayList<>();
        for (final String line : lines.subList(1, lines.size()))
        {
            final String[] f = line.split(",");
            final SyncRun.Metrics m = new SyncRun.Metrics(f[3], Integer.parseInt(f[4]), Integer.parseInt(f[5]),
                Double.parseDouble(f[6]), Double.parseDouble(f[7]), Double.parseDouble(f[8]), Double.parseDouble(f[9]),
                Double.parseDouble(f[10]), Double.parseDouble(f[11]), Double.parseDouble(f[12]),
                Double.parseDouble(f[13]), Long.parseLong(f[14]), Double.parseDouble(f[15]),
                (long)(Double.parseDouble(f[16]) * 1e9), 0);
            rows.add(row.newInstance(f[0], f[1], Double.parseDouble(f[2]), m));
            if (!pairs.contains(f[0] + "," + f[1]))
            {
                pairs.add(f[0] + "," + f[1]);
            }
        }
        for (final String pair : pairs)
        {
            final String[] p = pair.split(",");
            plot.invoke(null, rows, p[0], p[1], String.format(Locale.ROOT,
                "%s traffic, %s packets, %s, %,d flows per point, control delay %.3f us", p[0], p[1], args[1],
                Integer.parseInt(args[2]), Long.parseLong(args[3]) / 1e3),
                dir.resolve("sync-" + p[0] + "-" + p[1] + ".png"));
        }
    }
}
