package dev.warden.server.console;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Optional;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's chromium and chromium-driver for the console's browser tests: where they are, a
 * headless browser started on them, and screenshots into target/console-screenshots (docs/console
 * holds copies). {@code CHROME_BIN} and {@code CHROMEDRIVER} name other binaries.
 */
final class HeadlessChromium {
    private static final List<String> BROWSERS = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser",
            "/usr/bin/google-chrome");
    private static final List<String> DRIVERS = List.of("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver");
    static final Path SCREENSHOTS = Paths.get("target", "console-screenshots");

    private HeadlessChromium() {
    }

    /** Why the browser tests cannot run here, or empty when they can. */
    static Optional<String> missing() {
        if (browser().isPresent() && driver().isPresent()) {
            return Optional.empty();
        }
        return Optional.of("the console's browser test needs chromium and chromium-driver (apt-get install chromium"
                + " chromium-driver, or CHROME_BIN and CHROMEDRIVER); not found: "
                + (browser().isEmpty() ? BROWSERS : DRIVERS));
    }

    static ChromeDriver start() throws Exception {
        ChromeOptions options = new ChromeOptions().setBinary(browser().orElseThrow()).addArguments("--headless=new",
                "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1100,720");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(driver().orElseThrow())).usingAnyFreePort().build();
        Files.createDirectories(SCREENSHOTS);
        return new ChromeDriver(service, options);
    }

    static void screenshot(ChromeDriver browser, String name) throws Exception {
        Files.write(SCREENSHOTS.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
    }

    private static Optional<String> browser() {
        return firstExisting("CHROME_BIN", BROWSERS);
    }

    private static Optional<String> driver() {
        return firstExisting("CHROMEDRIVER", DRIVERS);
    }

    private static Optional<String> firstExisting(String environment, List<String> candidates) {
        String given = System.getenv(environment);
        if (given != null && Files.isExecutable(Path.of(given))) {
            return Optional.of(given);
        }
        return candidates.stream().filter(p -> Files.isExecutable(Path.of(p))).findFirst();
    }
}
