package dev.warden.server.console;

import static dev.warden.server.console.ConsoleHttp.base64;
import static dev.warden.server.console.ConsoleHttp.params;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.warden.server.EnsembleTestLimits;
import dev.warden.server.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.AdminServerSettings;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console on each member of a three-member ensemble: the ensemble view names every member
 * with its role, zxid, epoch and lag, and a write made through a follower's console goes to the
 * leader like a client's and is seen on every member. Where chromium is installed, the ensemble
 * page is also checked in the browser and its screenshot taken for docs/console.
 */
class ConsoleEnsembleTest {
    @TempDir
    Path baseDir;

    @Test
    void everyMembersConsoleShowsTheEnsembleAndWritesThroughIt() throws Exception {
        Map<Long, QuorumMember> members = new HashMap<>();
        Map<Long, Integer> clientPorts = new HashMap<>();
        for (long id = 1; id <= 3; id++) {
            int clientPort = FreePorts.pick();
            clientPorts.put(id, clientPort);
            members.put(id, new QuorumMember(id, "127.0.0.1", FreePorts.pick(), FreePorts.pick(), false, "127.0.0.1",
                    clientPort));
        }
        List<WardenServer> servers = new ArrayList<>();
        long startedAtMs = System.currentTimeMillis();
        try {
            for (long id = 1; id <= 3; id++) {
                servers.add(WardenServer.start(ServerConfig.builder().dataDir(baseDir.resolve("m" + id))
                        .clientPort(clientPorts.get(id)).clientPortAddress("127.0.0.1").tickTimeMs(200)
                        .serverId((int) id).initLimitTicks(EnsembleTestLimits.LIMIT_TICKS)
                        .syncLimitTicks(EnsembleTestLimits.LIMIT_TICKS).members(members)
                        .fourLetterWordWhitelist(Set.of("srvr", "mntr"))
                        .adminServer(AdminServerSettings.DEFAULTS.withEnabled(true).withPort(0)).build()));
            }
            List<ConsoleHttp> consoles = new ArrayList<>();
            for (WardenServer server : servers) {
                ConsoleHttp console = new ConsoleHttp(server.adminServerPort());
                assertEquals(200, console.login("carol", "pw").status());
                consoles.add(console);
            }
            JsonNode beforeWrites = awaitAllServing(consoles.get(0));
            // no write yet in the new epoch, so the zxids still carry epoch 0: this member's epoch
            // and the time its election ended come from its state
            long epoch = beforeWrites.path("epoch").asLong();
            assertTrue(epoch > 0, beforeWrites.toString());
            JsonNode self = beforeWrites.path("members").get(0);
            assertEquals(epoch, self.path("epoch").asLong(), beforeWrites.toString());
            assertEquals("state", self.path("epoch_from").asText(), beforeWrites.toString());
            long electedAtMs = beforeWrites.path("elected_at_ms").asLong();
            assertTrue(electedAtMs >= startedAtMs && electedAtMs <= System.currentTimeMillis(), beforeWrites.toString());
            for (int i = 0; i < 3; i++) {
                ConsoleHttp.Reply created = consoles.get(i).post("create", params("path", "/from-" + (i + 1),
                        "data_base64", base64("member " + (i + 1))));
                assertEquals(200, created.status(), created.json().toString());
            }
            for (int i = 0; i < 3; i++) {
                ConsoleHttp.Reply set = consoles.get(i).post("set", params("path", "/from-1",
                        "data_base64", base64("by " + (i + 1)), "version", Integer.toString(i)));
                assertEquals(200, set.status(), set.json().toString());
            }
            // a read on another member may lag the write by a moment: wait for it to apply there
            for (ConsoleHttp console : consoles) {
                long deadline = System.currentTimeMillis() + 5_000;
                JsonNode node;
                do {
                    node = console.get("node", params("path", "/from-1")).json();
                } while (node.path("stat").path("version").asInt() != 3 && System.currentTimeMillis() < deadline
                        && sleep());
                assertEquals("by 3", ConsoleHttp.text(node));
                assertEquals(3, console.get("children", params("path", "/", "prefix", "from-")).json()
                        .path("matching").asInt());
            }
            JsonNode ensemble = awaitAllServing(consoles.get(0));
            List<String> roles = new ArrayList<>();
            for (JsonNode member : ensemble.path("members")) {
                roles.add(member.path("role").asText());
                assertTrue(member.path("lag").asLong() >= 0, member.toString());
                // every member has applied this epoch's writes by now (waited for above)
                assertTrue(member.path("epoch").asLong() > 0, member.toString());
                assertEquals(ensemble.path("members").get(0).path("epoch").asLong(), member.path("epoch").asLong());
                // every member's fsync times: its own, and the others' from their mntr
                assertTrue(member.path("fsync_avg_ms").isNumber() && member.path("fsync_max_ms").isNumber(),
                        member.toString());
                assertTrue(member.path("fsync_error").isNull(), member.toString());
            }
            roles.sort(null);
            assertEquals(List.of("follower", "follower", "leader"), roles, ensemble.toString());
            assertEquals(1, ensemble.path("members").get(0).path("id").asInt());
            assertTrue(ensemble.path("members").get(0).path("self").asBoolean());
            if (HeadlessChromium.missing().isEmpty()) {
                showInBrowser(servers.get(0).adminServerPort());
            }
        } finally {
            servers.forEach(WardenServer::close);
        }
    }

    /** The ensemble page of member 1's console, with a leader and two followers (the docs' screenshot). */
    private static void showInBrowser(int adminPort) throws Exception {
        ChromeDriver browser = HeadlessChromium.start();
        try {
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(10));
            browser.get("http://127.0.0.1:" + adminPort + "/console/");
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("login-user"))).sendKeys("carol");
            browser.findElement(By.id("login-password")).sendKeys("pw");
            browser.findElement(By.id("login-submit")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("children-list")));
            browser.get("http://127.0.0.1:" + adminPort + "/console/#/ensemble");
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("ensemble-table"), "leader"));
            assertEquals(3, browser.findElements(By.cssSelector("#ensemble-table tbody tr")).size());
            HeadlessChromium.screenshot(browser, "ensemble");
        } finally {
            browser.quit();
        }
    }

    /** The ensemble as member 1's console shows it, once every member answers with a role. */
    private static JsonNode awaitAllServing(ConsoleHttp console) throws Exception {
        long deadline = System.currentTimeMillis() + 20_000;
        JsonNode ensemble;
        while (true) {
            ensemble = console.get("ensemble", Map.of()).json();
            boolean all = ensemble.path("members").size() == 3;
            for (JsonNode member : ensemble.path("members")) {
                String role = member.path("role").asText();
                all &= role.equals("leader") || role.equals("follower");
            }
            if (all || System.currentTimeMillis() > deadline) {
                return ensemble;
            }
            Thread.sleep(100);
        }
    }

    private static boolean sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return true;
    }
}
