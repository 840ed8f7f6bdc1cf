package dev.warden.recipes.group;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.recipes.testing.Eventually;
import dev.warden.recipes.testing.RecipeTarget;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GroupMembershipTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    @TempDir
    Path dataDir;
    private RecipeTarget server;
    private String group;

    @BeforeEach
    void start() throws Exception {
        server = RecipeTarget.start(dataDir);
        group = RecipeTarget.freshPath("group") + "/workers";
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static List<String> names(List<MemberNode> members) {
        return members.stream().map(MemberNode::name).toList();
    }

    @Test
    void aFollowerSeesJoinsInOrderWithDataAndSeesACrashedMemberLeave() {
        WardenClient observer = server.client();
        List<List<MemberNode>> seen = Collections.synchronizedList(new ArrayList<>());
        GroupView view = GroupView.follow(observer, group, seen::add, TIMEOUT);
        assertEquals(List.of(List.of()), seen, "the empty group is delivered first");

        WardenClient a = server.client();
        WardenClient b = server.client();
        GroupMember.builder(group, "a").data("host-a".getBytes(StandardCharsets.UTF_8)).join(a, TIMEOUT);
        GroupMember.builder(group, "b").join(b, TIMEOUT);
        Eventually.holds(TIMEOUT, () -> names(view.members()).equals(List.of("a", "b")), () -> view.members().toString());
        assertArrayEquals("host-a".getBytes(StandardCharsets.UTF_8), view.members().get(0).data());
        assertEquals(a.sessionId(), view.members().get(0).sessionId());

        a.close(); // a crash looks the same to the others once the session is gone
        Eventually.holds(TIMEOUT, () -> names(view.members()).equals(List.of("b")), () -> view.members().toString());
        assertEquals(List.of("b"), names(GroupView.list(observer, group).join()));
    }

    @Test
    void aFixedNameHeldByAnotherSessionIsRefusedButSequentialMembersMayShareOne() {
        GroupMember.builder(group, "a").join(server.client(), TIMEOUT);
        WardenClient other = server.client();
        assertThrows(WardenException.NodeExistsException.class, () -> GroupMember.builder(group, "a").join(other, TIMEOUT));

        GroupMember first = GroupMember.builder(group, "shard-").sequential(true).join(server.client(), TIMEOUT);
        GroupMember second = GroupMember.builder(group, "shard-").sequential(true).join(server.client(), TIMEOUT);
        assertNotEquals(first.memberPath(), second.memberPath());
        assertEquals(3, GroupView.list(other, group).join().size());
        second.close();
        Eventually.holds(TIMEOUT, () -> GroupView.list(other, group).join().size() == 2, () -> "second left");
    }

    @Test
    void aMemberWhoseSessionExpiresRejoinsOnANewSessionWhenAsked() throws Exception {
        RecipeTarget.ProxiedClient proxied = server.proxiedClient(RecipeTarget.SHORT_SESSION_TIMEOUT);
        AtomicInteger lost = new AtomicInteger();
        List<String> rejoined = Collections.synchronizedList(new ArrayList<>());
        GroupMember member = GroupMember.builder(group, "rs1")
                .rejoinWith(() -> WardenClient.builder().connectString(server.connectString())
                        .sessionTimeout(RecipeTarget.DEFAULT_SESSION_TIMEOUT).connect())
                .listener(new MembershipListener() {
                    @Override
                    public void lost() {
                        lost.incrementAndGet();
                    }

                    @Override
                    public void rejoined(String memberPath) {
                        rejoined.add(memberPath);
                    }
                })
                .join(proxied.client(), TIMEOUT);
        WardenClient observer = server.client();
        long firstSession = proxied.client().sessionId();

        proxied.proxy().cut();
        Eventually.holds(Duration.ofSeconds(20), () -> rejoined.size() == 1, () -> "lost " + lost.get());
        List<MemberNode> members = GroupView.list(observer, group).join();
        assertEquals(List.of("rs1"), names(members));
        assertNotEquals(firstSession, members.get(0).sessionId(), "held by the new session");
        assertEquals(member.client().sessionId(), members.get(0).sessionId());
        assertEquals(1, lost.get());

        member.close();
        Eventually.holds(TIMEOUT, () -> GroupView.list(observer, group).join().isEmpty(), () -> "left on close");
        assertTrue(rejoined.get(0).endsWith("/rs1"));
    }
}
