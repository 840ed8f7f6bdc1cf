package dev.warden.server.console;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.ApacheClients;
import dev.warden.server.WardenServer;
import dev.warden.server.config.AdminServerSettings;
import dev.warden.server.config.ServerConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real headless browser (Debian's chromium and chromium-driver through
 * Selenium): log in, browse a paged node, view data as JSON, edit, have a stale edit refused,
 * delete, list sessions, see a read-only login, and draw the charts, taking the screenshots of
 * docs/console ({@link HeadlessChromium}). Skipped, saying why, where chromium or its driver is
 * not installed.
 */
class ConsoleBrowserTest {
    @TempDir
    Path dataDir;
    private WardenServer server;
    private ZooKeeper client;
    private ChromeDriver browser;
    private WebDriverWait wait;

    @BeforeEach
    void start() throws Exception {
        Optional<String> missing = HeadlessChromium.missing();
        Assumptions.assumeTrue(missing.isEmpty(), missing.orElse(""));
        server = WardenServer.start(ServerConfig.builder().dataDir(dataDir).clientPort(0)
                .adminServer(AdminServerSettings.DEFAULTS.withEnabled(true).withPort(0)).build());
        client = ApacheClients.connect(server.connectString());
        browser = HeadlessChromium.start();
        wait = new WebDriverWait(browser, Duration.ofSeconds(10));
        wait.ignoring(StaleElementReferenceException.class); // the page replaces lists and tables whole
    }

    @AfterEach
    void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void browseEditAStaleEditDeleteAndSessions() throws Exception {
        client.create("/app", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        client.create("/app/config", "{\"pool\":{\"size\":8,\"timeoutMs\":2500},\"feature\":true}".getBytes(),
                ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        client.create("/app/items", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        List<Op> ops = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            ops.add(Op.create(String.format("/app/items/item-%03d", i), ("item " + i).getBytes(),
                    ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
        }
        client.multi(ops);
        client.create("/app/binary", new byte[] {(byte) 0xff, (byte) 0xfe, 0, 'A'}, ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.PERSISTENT);
        List<ACL> readOnly = new ArrayList<>(List.of(new ACL(ZooDefs.Perms.READ, new Id("world", "anyone"))));
        client.create("/app/readonly", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        client.create("/app/readonly/doc", "look, don't touch".getBytes(), readOnly, CreateMode.PERSISTENT);
        client.setACL("/app/readonly", readOnly, -1);
        ZooKeeper worker = ApacheClients.connect(server.connectString());
        try {
            worker.create("/app/lock-", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
            worker.exists("/app/readonly", true);
            String base = "http://127.0.0.1:" + server.adminServerPort();

            // load: the page asks for a login
            browser.get(base + "/console");
            visible("login-user");
            shot("login");
            type("login-user", "carol");
            type("login-password", "secret");
            click("login-submit");

            // browse: root → app → items, a page of 100 of its 250 children, then the next page
            clickChild("app");
            clickChild("items");
            wait.until(ExpectedConditions.textToBe(By.id("children-count"), "250 children, showing 100"));
            assertEquals("item-000", firstChild());
            click("children-more");
            wait.until(d -> "item-100".equals(firstChild()));
            shot("tree");

            // the node view: data as JSON, Stat and ACL
            browser.get(base + "/console/#/tree?path=%2Fapp%2Fconfig");
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("node-data"), "\"pool\""));
            browser.findElement(By.cssSelector("#data-tabs button[data-format=json]")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("node-data"), "\"size\": 8"));
            assertTrue(browser.findElement(By.id("node-stat")).getText().contains("version 0"));
            assertTrue(browser.findElement(By.id("node-acl")).getText().contains("anyone cdrwa"));
            shot("node");

            // edit with the version read
            click("edit-button");
            type("edit-text", "{\"pool\":{\"size\":16}}");
            click("save-button");
            wait.until(ExpectedConditions.textToBe(By.id("node-ok"), "Saved /app/config: now at version 1"));
            assertArrayEquals("{\"pool\":{\"size\":16}}".getBytes(), client.getData("/app/config", false, null));

            // a stale edit: another client writes between the read and the save
            browser.findElement(By.cssSelector("#data-tabs button[data-format=text]")).click();
            click("edit-button");
            type("edit-text", "mine");
            client.setData("/app/config", "theirs".getBytes(), 1);
            click("save-button");
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("node-message"),
                    "you read version 1, it is now at version 2"));
            assertTrue(browser.findElement(By.id("node-message")).getText().startsWith("Refused: "));
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("node-data"), "theirs"));
            assertArrayEquals("theirs".getBytes(), client.getData("/app/config", false, null));
            shot("stale-edit");

            // binary data: shown in hex, not offered for a text edit
            browser.get(base + "/console/#/tree?path=%2Fapp%2Fbinary");
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("node-path"), "/app/binary"));
            browser.findElement(By.cssSelector("#data-tabs button[data-format=hex]")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("node-data"), "00000000  ff fe 00 41"));
            assertFalse(browser.findElement(By.id("edit-button")).isDisplayed());
            assertTrue(browser.findElement(By.id("delete-button")).isDisplayed());
            browser.findElement(By.cssSelector("#data-tabs button[data-format=text]")).click();

            // a delete, confirmed
            browser.get(base + "/console/#/tree?path=%2Fapp%2Fitems%2Fitem-007");
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("node-data"), "item 7"));
            click("delete-button");
            visible("delete-confirm");
            assertTrue(browser.findElement(By.id("delete-question")).getText().contains("/app/items/item-007"));
            shot("delete");
            click("delete-confirm");
            wait.until(ExpectedConditions.textToBe(By.id("node-ok"), "Deleted /app/items/item-007"));
            assertNull(client.exists("/app/items/item-007", false));

            // sessions: the worker's address, timeout, ephemeral node and watch
            browser.findElement(By.cssSelector("#nav a[data-view=sessions]")).click();
            String session = "0x" + Long.toHexString(worker.getSessionId());
            WebElement row = wait.until(ExpectedConditions.visibilityOfElementLocated(
                    By.cssSelector("#sessions-table tr[data-session='" + session + "']")));
            assertTrue(row.getText().contains("127.0.0.1:"), row.getText());
            assertTrue(row.getText().contains("/app/lock-0000000"), row.getText());
            assertTrue(row.getText().contains("1: /app/readonly"), row.getText());
            shot("sessions");

            // watches: each watched path with the sessions watching it, filtered by a prefix
            worker.getData("/app/config", true, null);
            browser.findElement(By.cssSelector("#nav a[data-view=watches]")).click();
            WebElement watched = wait.until(ExpectedConditions.visibilityOfElementLocated(
                    By.cssSelector("#watches-table tr[data-path='/app/readonly']")));
            assertEquals("/app/readonly " + session, watched.getText());
            wait.until(ExpectedConditions.textToBe(By.id("watches-count"), "2 watched paths, 2 matching"));
            type("watch-prefix", "/app/c");
            browser.findElement(By.id("watch-prefix")).sendKeys(Keys.ENTER);
            wait.until(ExpectedConditions.textToBe(By.id("watches-count"), "2 watched paths, 1 matching"));
            List<WebElement> rows = browser.findElements(By.cssSelector("#watches-table tbody tr"));
            assertEquals(1, rows.size());
            assertEquals("/app/config " + session, rows.get(0).getText());
            shot("watches");

            browser.findElement(By.cssSelector("#nav a[data-view=ensemble]")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("ensemble-table"), "standalone"));

            // charts, drawn from the stats endpoint once a second while a client reads
            AtomicBoolean loading = new AtomicBoolean(true);
            Thread load = new Thread(() -> {
                for (int i = 0; loading.get(); i++) {
                    try {
                        worker.getData("/app/config", false, null);
                        if (i % 20 == 0) {
                            worker.setData("/app/items/item-001", Integer.toString(i).getBytes(), -1);
                        }
                    } catch (Exception e) {
                        return;
                    }
                }
            });
            load.start();
            try {
                browser.findElement(By.cssSelector("#nav a[data-view=charts]")).click();
                wait.until(d -> d.findElements(By.cssSelector("#chart-throughput polyline")).size() == 1
                        && d.findElement(By.cssSelector("#chart-throughput polyline")).getAttribute("points")
                        .split(" ").length >= 8);
            } finally {
                loading.set(false);
                load.join();
            }
            assertTrue(browser.findElement(By.id("charts-now")).getText().contains("requests/s"));
            shot("charts");

            // another login, granted only READ on /app/readonly/doc and its parent: the page offers no change
            click("logout");
            visible("login-user");
            type("login-user", "alice");
            type("login-password", "alicepw");
            click("login-submit");
            browser.get(base + "/console/#/tree?path=%2Fapp%2Freadonly%2Fdoc");
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("node-data"), "look, don't touch"));
            assertTrue(browser.findElement(By.id("node-readonly")).isDisplayed());
            assertFalse(browser.findElement(By.id("edit-button")).isDisplayed());
            assertFalse(browser.findElement(By.id("delete-button")).isDisplayed());
            assertFalse(browser.findElement(By.id("create-button")).isDisplayed());
            shot("read-only");
        } finally {
            worker.close();
        }
    }

    private void clickChild(String name) {
        wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("#children-list li[data-name='" + name
                + "'] a"))).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("node-path"), "/" + name));
    }

    private String firstChild() {
        // read in one step in the page: the list is replaced whole when a page arrives
        return (String) browser.executeScript(
                "const item = document.querySelector('#children-list li'); return item ? item.dataset.name : null;");
    }

    private void visible(String id) {
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id(id)));
    }

    private void click(String id) {
        wait.until(ExpectedConditions.elementToBeClickable(By.id(id))).click();
    }

    private void type(String id, String text) {
        WebElement field = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id(id)));
        field.clear();
        field.sendKeys(text);
    }

    private void shot(String name) throws Exception {
        HeadlessChromium.screenshot(browser, name);
    }
}
