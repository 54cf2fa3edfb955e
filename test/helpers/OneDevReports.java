// Reads a Checkstyle or JUnit report the way OneDev's report steps do (server-plugin-report-checkstyle's
// PublishCheckstyleReportStep, server-plugin-report-junit's JUnitReportParser): the JDK's own XML parser
// (the SAX parser dom4j reads with) with DOCTYPE declarations refused, then the attributes and elements
// those steps read, with the same conversions (Integer.parseInt, Double.parseDouble), so that a report
// OneDev would reject or misread fails here too. Prints what OneDev would record, as JSON, on stdout.
//
//   java test/helpers/OneDevReports.java checkstyle REPORT WORKDIR   problems, and the names that do not resolve
//   java test/helpers/OneDevReports.java junit REPORT                suites with the status OneDev derives, and cases
//
// Exit 1 with the parser's message when the document is not well-formed XML (OneDev ignores such a report).
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

public class OneDevReports {

	public static void main(String[] args) throws Exception {
		Document doc;
		try {
			DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
			factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
			DocumentBuilder builder = factory.newDocumentBuilder();
			builder.setErrorHandler(null);
			String xml = new String(Files.readAllBytes(Paths.get(args[1])), StandardCharsets.UTF_8);
			doc = builder.parse(new org.xml.sax.InputSource(new java.io.StringReader(xml)));
		} catch (org.xml.sax.SAXException e) {
			System.err.println("not a valid XML: " + e.getMessage());
			System.exit(1);
			return;
		}
		if (args[0].equals("checkstyle"))
			System.out.println(checkstyle(doc, args[2]));
		else
			System.out.println(junit(doc));
	}

	private static List<Element> children(Element parent, String name) {
		List<Element> out = new ArrayList<>();
		for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
			if (node instanceof Element && (name == null || ((Element) node).getTagName().equals(name)))
				out.add((Element) node);
		}
		return out;
	}

	/** dom4j's attributeValue: null when absent. */
	private static String attribute(Element element, String name) {
		return element.hasAttribute(name) ? element.getAttribute(name) : null;
	}

	private static String checkstyle(Document doc, String workDir) throws Exception {
		Path work = Paths.get(workDir).toAbsolutePath().normalize();
		StringBuilder problems = new StringBuilder();
		StringBuilder unresolved = new StringBuilder();
		for (Element file : children(doc.getDocumentElement(), "file")) {
			String name = attribute(file, "name");
			// Build.getBlobPath: a relative name from the job's working directory, normalized; it must be a
			// file of the checkout (here: the working directory) to be shown.
			Path path = new File(name).isAbsolute() ? Paths.get(name) : work.resolve(name);
			path = path.normalize();
			if (!path.startsWith(work) || !Files.isRegularFile(path)) {
				append(unresolved, json(name));
				continue;
			}
			String blobPath = work.relativize(path).toString().replace('\\', '/');
			for (Element violation : children(file, null)) {
				String severity = attribute(violation, "severity");
				String mapped = severity.equalsIgnoreCase("error") ? "HIGH" : severity.equalsIgnoreCase("warning") ? "MEDIUM" : "LOW";
				String message = attribute(violation, "source") + ": " + attribute(violation, "message");
				int line = Integer.parseInt(attribute(violation, "line"));
				String column = attribute(violation, "column");
				append(problems, "{\"file\":" + json(blobPath) + ",\"severity\":" + json(mapped) + ",\"message\":" + json(message)
						+ ",\"line\":" + line + ",\"column\":" + (column == null ? "null" : String.valueOf(Integer.parseInt(column))) + "}");
			}
		}
		return "{\"problems\":[" + problems + "],\"unresolved\":[" + unresolved + "]}";
	}

	private static int integer(String value) {
		return value == null ? 0 : Integer.parseInt(value);
	}

	private static String junit(Document doc) {
		Element root = doc.getDocumentElement();
		List<Element> suites = new ArrayList<>();
		if (root.getTagName().equals("testsuite"))
			suites.add(root);
		else if (root.getTagName().equals("testsuites"))
			suites.addAll(children(root, "testsuite"));
		StringBuilder out = new StringBuilder();
		for (Element suite : suites) {
			String time = attribute(suite, "time");
			if (time != null)
				Double.parseDouble(time);
			int tests = integer(attribute(suite, "tests"));
			int failures = integer(attribute(suite, "failures"));
			int errors = integer(attribute(suite, "errors"));
			String skippedText = attribute(suite, "skipped");
			int skipped = skippedText == null || skippedText.trim().isEmpty() ? 0 : Integer.parseInt(skippedText);
			// The suite's status comes from its attributes alone.
			String status = failures != 0 || errors != 0 ? "NOT_PASSED" : skipped == tests ? "NOT_RUN" : "PASSED";
			StringBuilder cases = new StringBuilder();
			for (Element testCase : children(suite, "testcase")) {
				String caseStatus;
				String message = null;
				if (!children(testCase, "skipped").isEmpty()) {
					caseStatus = "NOT_RUN";
					message = attribute(children(testCase, "skipped").get(0), "message");
				} else {
					String caseTime = attribute(testCase, "time");
					if (caseTime != null)
						Double.parseDouble(caseTime);
					List<Element> failure = children(testCase, "failure");
					List<Element> error = children(testCase, "error");
					if (!failure.isEmpty()) {
						caseStatus = "NOT_PASSED";
						message = failure.get(0).getTextContent();
					} else if (!error.isEmpty()) {
						caseStatus = "NOT_PASSED";
						message = error.get(0).getTextContent();
					} else {
						caseStatus = "PASSED";
					}
				}
				append(cases, "{\"name\":" + json(attribute(testCase, "name")) + ",\"status\":" + json(caseStatus) + ",\"error\":"
						+ (!children(testCase, "error").isEmpty()) + ",\"text\":" + json(message) + "}");
			}
			append(out, "{\"name\":" + json(attribute(suite, "name")) + ",\"tests\":" + tests + ",\"failures\":" + failures + ",\"errors\":" + errors
					+ ",\"skipped\":" + skipped + ",\"status\":" + json(status) + ",\"cases\":[" + cases + "]}");
		}
		return "{\"root\":" + json(root.getTagName()) + ",\"suites\":[" + out + "]}";
	}

	private static void append(StringBuilder list, String item) {
		if (list.length() > 0)
			list.append(',');
		list.append(item);
	}

	private static String json(String value) {
		if (value == null)
			return "null";
		StringBuilder out = new StringBuilder("\"");
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c == '"' || c == '\\')
				out.append('\\').append(c);
			else if (c < 0x20 || (c >= 0xd800 && c <= 0xdfff))
				out.append(String.format("\\u%04x", (int) c));
			else
				out.append(c);
		}
		return out.append('"').toString();
	}
}
