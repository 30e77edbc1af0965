package dev.shortgate.rules;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Which arm of a weighted split a visitor gets: HMAC-SHA256, under the client-id key (docs/adr/0002-keyed-client-
 * id.md), of the same input as the client id (the raw client IP, {@code &}, the user agent) followed by the code;
 * its first 8 bytes, as an unsigned number modulo the sum of the weights, pick the arm. The same visitor always
 * gets the same arm of a link, with no cookie and nothing stored, on every pod (they share the key); different links
 * split the same visitors independently; and without the key nobody can tell which arm an address will get.
 *
 * <p>Until the shared key has been read (the first second of a pod's life, or a database that cannot answer at
 * start) a plain SHA-256 of the same input stands in, so a redirect never waits for it.
 */
final class VariantPicker {

    private static final byte[] EMPTY = new byte[0];

    private final ThreadLocal<Mac> macs = new ThreadLocal<>();
    private volatile byte[] key;
    private final ThreadLocal<MessageDigest> digests = ThreadLocal.withInitial(VariantPicker::sha256);

    /** The client-id key is known now. */
    void key(byte[] key) {
        this.key = key.clone();
    }

    boolean keyed() {
        return key != null;
    }

    /** The arm, by index, for this visitor and code, of weights that sum to {@code total} (more than 0). */
    int pick(int[] weights, int total, String code, InetAddress ip, String userAgent) {
        long bucket = Long.remainderUnsigned(hash(code, ip, userAgent), total);
        for (int i = 0; i < weights.length; i++) {
            bucket -= weights[i];
            if (bucket < 0) {
                return i;
            }
        }
        return weights.length - 1;
    }

    long hash(String code, InetAddress ip, String userAgent) {
        // the input in its parts, fed one by one: no joined string, and the digest's own buffer takes them
        byte[] address = ip == null ? EMPTY : ip.getHostAddress().getBytes(StandardCharsets.UTF_8);
        byte[] agent = userAgent == null ? EMPTY : userAgent.getBytes(StandardCharsets.UTF_8);
        byte[] link = code.getBytes(StandardCharsets.UTF_8);
        byte[] digest;
        if (key == null) {
            MessageDigest sha = digests.get();
            sha.update(address);
            sha.update((byte) '&');
            sha.update(agent);
            sha.update((byte) '\n');
            sha.update(link);
            digest = sha.digest();
        } else {
            Mac mac = mac();
            mac.update(address);
            mac.update((byte) '&');
            mac.update(agent);
            mac.update((byte) '\n');
            mac.update(link);
            digest = mac.doFinal();
        }
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = (value << 8) | (digest[i] & 0xff);
        }
        return value;
    }

    private Mac mac() {
        byte[] current = key;
        Mac mac = macs.get();
        if (mac == null) {
            try {
                mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(current, "HmacSHA256"));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("HmacSHA256 is not available", e);
            }
            macs.set(mac);
        }
        return mac;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
