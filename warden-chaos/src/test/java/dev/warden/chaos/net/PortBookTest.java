package dev.warden.chaos.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

class PortBookTest {
    @Test
    void aPortOnceHandedOutIsNeverHandedOutAgainEvenWhenItIsFreeNow() {
        // the kernel says 20001 (a member's port while the member is down) is free, and so on
        Deque<Integer> freeNow = new ArrayDeque<>(List.of(20001, 20002, 20001, 20003, 20002, 20004));
        PortBook book = new PortBook(count -> {
            List<Integer> picked = new java.util.ArrayList<>();
            for (int i = 0; i < count; i++) {
                picked.add(freeNow.pop());
            }
            return picked;
        });
        book.reserve(List.of(20001));
        assertEquals(List.of(20002, 20003), book.take(2));
        assertEquals(List.of(20004), book.take(1));
    }
}
