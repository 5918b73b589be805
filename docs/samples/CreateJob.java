// Creates two jobs with Java's HttpClient and javax.crypto: one as JSON through POST /jobs, one with
// a photo through POST /jobs/with-attachments. Each request is signed (HTTP Signatures, hmac-sha256)
// over (request-target) host date digest content-length. Java 11 or later, no libraries:
//
//   INTAKE_BASE_URL=http://127.0.0.1:8080 INTAKE_KEY_ID=stg_... INTAKE_KEY_SECRET=... \
//     INTAKE_PHOTO=boiler.jpg java CreateJob.java
//
// Prints one line per job: the status, then the answer. Exits 1 unless both are 201.
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class CreateJob {
    static final String BASE_URL = System.getenv().getOrDefault("INTAKE_BASE_URL", "http://127.0.0.1:8080");
    static final String KEY_ID = System.getenv("INTAKE_KEY_ID");
    static final String SECRET = System.getenv("INTAKE_KEY_SECRET");
    static final String PHOTO = System.getenv("INTAKE_PHOTO");
    static final String COVERED = "(request-target) host date digest content-length";
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** Signs and posts exactly {@code body}. HttpClient sends Host and Content-Length itself, with
     *  the values signed here. */
    static HttpResponse<String> send(String path, String contentType, byte[] body) throws Exception {
        String host = URI.create(BASE_URL).getRawAuthority();
        // An HTTP date (IMF-fixdate): two-digit day, English names, GMT.
        String date = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ENGLISH)
                .format(ZonedDateTime.now(ZoneOffset.UTC));
        String digest = "SHA-256=" + Base64.getEncoder()
                .encodeToString(MessageDigest.getInstance("SHA-256").digest(body));
        String signingString = String.join("\n",
                "(request-target): post " + path,
                "host: " + host,
                "date: " + date,
                "digest: " + digest,
                "content-length: " + body.length);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String signature = Base64.getEncoder()
                .encodeToString(mac.doFinal(signingString.getBytes(StandardCharsets.UTF_8)));
        HttpRequest request = HttpRequest.newBuilder(URI.create(BASE_URL + path))
                .header("Date", date)
                .header("Digest", digest)
                .header("Content-Type", contentType)
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .header("Authorization", "Signature keyId=\"" + KEY_ID + "\",algorithm=\"hmac-sha256\",headers=\""
                        + COVERED + "\",signature=\"" + signature + "\"")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    static String job(String email, String phone, String first, String last, String description) {
        return "{\"categoryId\": 1335, \"description\": \"" + description + "\", \"email\": \"" + email
                + "\", \"phone\": \"" + phone + "\", \"firstName\": \"" + first + "\", \"lastName\": \"" + last
                + "\", \"postcode\": \"SW1A 1AA\", \"preferredStart\": {\"id\": \"URGENT\"}}";
    }

    public static void main(String[] args) throws Exception {
        if (KEY_ID == null || SECRET == null || PHOTO == null) {
            System.err.println("set INTAKE_KEY_ID, INTAKE_KEY_SECRET and INTAKE_PHOTO");
            System.exit(2);
        }
        String json = job("jamie.java@example.com", "07700 900501", "Jamie", "Java",
                "Boiler not working, no hot water since Monday.");
        HttpResponse<String> plain = send("/v1/affiliate-job/jobs", "application/json",
                json.getBytes(StandardCharsets.UTF_8));

        // The job in a `data` field and the photo in an `images` field, built by hand so that the
        // bytes signed are the bytes sent.
        String boundary = "----intake-sample-" + UUID.randomUUID();
        String name = Path.of(PHOTO).getFileName().toString();
        String type = name.toLowerCase(Locale.ROOT).endsWith(".png") ? "image/png" : "image/jpeg";
        ByteArrayOutputStream form = new ByteArrayOutputStream();
        form.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"data\"\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        form.write(job("hana.httpclient@example.com", "07700 900502", "Hana", "Httpclient",
                "Leaking radiator valve in the hall, photo attached.").getBytes(StandardCharsets.UTF_8));
        form.write(("\r\n--" + boundary + "\r\nContent-Disposition: form-data; name=\"images\"; filename=\""
                + name + "\"\r\nContent-Type: " + type + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        form.write(Files.readAllBytes(Path.of(PHOTO)));
        form.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> withPhoto = send("/v1/affiliate-job/jobs/with-attachments",
                "multipart/form-data; boundary=" + boundary, form.toByteArray());

        boolean ok = true;
        for (HttpResponse<String> answer : List.of(plain, withPhoto)) {
            System.out.println(answer.statusCode() + " " + answer.body());
            ok &= answer.statusCode() == 201;
        }
        System.exit(ok ? 0 : 1);
    }
}
