package io.pfabric.analysis;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Several XChart panels of one size in a grid under a title, written as one PNG: the results' plots.
 */
public final class ChartGrid
{
    private static final int TITLE_HEIGHT = 40;

    private ChartGrid()
    {
    }

    /**
     * Draw the panels row by row and write the image.
     *
     * @param charts      the panels, all {@code panelWidth} by {@code panelHeight}.
     * @param columns     panels per row.
     * @param panelWidth  pixels.
     * @param panelHeight pixels.
     * @param title       above the panels.
     * @param file        where to write.
     * @throws IOException if it cannot be written.
     */
    public static void write(final List<XYChart> charts, final int columns, final int panelWidth,
        final int panelHeight, final String title, final Path file) throws IOException
    {
        System.setProperty("java.awt.headless", "true");
        final int rows = (charts.size() + columns - 1) / columns;
        final BufferedImage image = new BufferedImage(columns * panelWidth, TITLE_HEIGHT + rows * panelHeight,
            BufferedImage.TYPE_INT_RGB);
        final Graphics2D graphics = image.createGraphics();
        try
        {
            graphics.setColor(Color.WHITE);
            graphics.fillRect(0, 0, image.getWidth(), image.getHeight());
            graphics.setColor(Color.BLACK);
            graphics.setFont(graphics.getFont().deriveFont(18f));
            graphics.drawString(title, 20, 28);
            for (int i = 0; i < charts.size(); i++)
            {
                graphics.drawImage(BitmapEncoder.getBufferedImage(charts.get(i)), (i % columns) * panelWidth,
                    TITLE_HEIGHT + (i / columns) * panelHeight, null);
            }
        }
        finally
        {
            graphics.dispose();
        }
        if (!ImageIO.write(image, "png", file.toFile()))
        {
            throw new IOException("no PNG writer in this JDK");
        }
    }
}
