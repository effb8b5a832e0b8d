import { describe, expect, it } from "vitest"
import { estimateTokens } from "../../src/Chat/Tokens"
import { answerText } from "./support/Compose"

const ask = answerText

const faq = {
  path: "faq.pdf",
  text: "6. The Debian archives › 6.2.2 Where do these codenames come from?\n\n" +
    "So far they have been characters taken from the Toy Story movies released by Pixar."
}

describe("OfflineModel", () => {
  it("answers with the text under the matching heading, not the heading", () => {
    const answer = ask("Where do the Debian release codenames come from?", [
      faq,
      {
        path: "faq.pdf",
        text:
          "6. The Debian archives › 6.2 Codenames\n\nDebian releases have codenames, listed below.\nbuzz, rex, bo, hamm, slink"
      }
    ])
    expect(answer).toContain("Toy Story")
    expect(answer).not.toContain("Where do these codenames come from")
  })

  it("never quotes a sentence that only restates the question or a heading", () => {
    const answer = ask("How do I report a bug in Debian?", [{
      path: "faq.txt",
      text:
        "Reporting bugs\n\nHow do I report a bug in Debian?\nReporting bugs.\nUse the reportbug program to send a report to the bug tracking system."
    }])
    expect(answer).toContain("reportbug")
    expect(answer).not.toContain("How do I report a bug")
    expect(answer).not.toContain("\"Reporting bugs.\"")
  })

  it("prefers the sentences under the heading the question matches over a passing mention elsewhere", () => {
    const answer = ask("How do you pronounce Debian?", [
      {
        path: "faq.txt",
        text: "Intro\n\nDebian is pronounced differently by many people, and the Debian project is large."
      },
      {
        path: "faq.txt",
        text: "Basics › How do you pronounce Debian?\n\nIt is pronounced Deb-ee-in, like Debbie and Ian."
      }
    ])
    const firstQuote = answer.split("\n").find((line) => line.startsWith("According") || line.startsWith("- "))
    expect(firstQuote).toContain("Deb-ee-in")
  })

  it("answers in the question's language when the source has it", () => {
    const bilingual = {
      path: "shipping.md",
      text: "Shipping › ارسال\n\nDelivery to Tehran takes two days.\nارسال به تهران دو روز طول می‌کشد."
    }
    expect(ask("ارسال به تهران چند روز طول می‌کشد؟", [bilingual], { language: "fa" })).toContain("دو روز")
    expect(ask("How long does delivery to Tehran take?", [bilingual])).toContain("two days")
  })

  it("quotes no more than maxOutputTokens allows", () => {
    const long = Array.from(
      { length: 6 },
      (_, i) => `The warranty covers part number ${i} of the espresso machine for two full years.`
    )
    const passages = [{ path: "warranty.md", text: `Warranty\n\n${long.join(" ")}` }]
    const roomy = ask("What does the warranty of the espresso machine cover?", passages)
    const tight = ask("What does the warranty of the espresso machine cover?", passages, { maxOutputTokens: 30 })
    expect(estimateTokens(roomy)).toBeGreaterThan(30)
    expect(estimateTokens(tight)).toBeLessThanOrEqual(30)
    expect(tight).toContain("warranty")
  })

  it("still says it does not know when nothing relevant is found", () => {
    expect(ask("Do you sell bicycles?", [faq])).toMatch(/^I don't know/)
    expect(ask("Do you sell bicycles?", [])).toMatch(/^I don't know/)
    expect(ask("آیا دوچرخه می‌فروشید؟", [faq], { language: "fa" })).toMatch(/^نمی‌دانم/)
  })
})

describe("OfflineModel declining", () => {
  // A manual's worth of sentences about developers and uploads, none about pay.
  const manual = [
    {
      path: "guide.pdf",
      text: "Uploading › 9.1 Uploading to the Debian archive\n\n" +
        Array.from({ length: 12 }, (_, i) => `Upload number ${i + 1} of a Debian Developer goes to queue ${i + 1}.`)
          .join(" ")
    },
    {
      path: "guide.pdf",
      text: "Tools\n\nDevelopers upload a package with dput after signing it with debsign."
    }
  ]

  it("declines when the question's subject is nowhere in the passages, however many of its other words match", () => {
    expect(ask("What salary does a Debian Developer get for an upload?", manual)).toMatch(/^I don't know/)
  })

  it("still answers when the passages hold the subject", () => {
    expect(ask("Which tool does a Debian Developer upload a package with?", manual)).toContain("dput")
  })

  it("reads a Persian verb in another person as the same verb", () => {
    const answer = ask("چند ماه می‌توانم دستگاه را امانت بگیرم؟", [
      { path: "rent.md", text: "امانت دستگاه\n\nدستگاه را تا ۳ ماه می‌توانید امانت بگیرید و سپس تحویل دهید." }
    ], { language: "fa" })
    expect(answer).toContain("۳ ماه")
  })
})

describe("OfflineModel quoting", () => {
  it("drops list markers but keeps a sentence's own leading digits", () => {
    const answer = ask("Which software manipulates 3D graphics?", [
      { path: "menu.txt", text: "Graphics\n\n- 2D and 3D graphics manipulation software.\n3. Vector drawing tools." }
    ])
    expect(answer).toContain("\"2D and 3D graphics manipulation software.\"")
  })

  it("quotes a definition list's entry with its label, and only the entry asked about", () => {
    const menu = {
      path: "menu.txt",
      text:
        "Menu › 2.1 Structure\n\nApplications/Editors\n\nEditors for text-based information.\n\nExamples: nano, hexedit\n\n" +
        "Applications/Archivers\n\nPrograms that pack and unpack file archives.\n\nExamples: tar, zip, 7z\n\n" +
        "Screen Savers\n\nThis section is kept for xscreensaver modules only."
    }
    const archivers = ask("Give examples of programs under Applications/Archivers.", [menu])
    const firstQuote = archivers.split("\n").find((line) => line.startsWith("According") || line.startsWith("- "))
    expect(firstQuote).toContain("Applications/Archivers:")
    expect(firstQuote).toContain("Examples: tar, zip, 7z")
    expect(archivers).not.toContain("nano")
    // The label alone is never a quote; it names the line under it.
    expect(ask("What section is kept for xscreensaver modules?", [menu])).toContain(
      "Screen Savers: This section is kept"
    )
  })

  it("quotes a short last line written without a period: it names nothing below it", () => {
    const answer = ask("ساعت کاری پشتیبانی چیست؟", [{
      path: "faq.md",
      text: "تماس › ساعت کاری پشتیبانی چیست؟\n\nپشتیبانی\nهر روز از نه تا شش"
    }], { language: "fa" })
    expect(answer).toContain("هر روز از نه تا شش")
  })

  it("quotes the lines a lead-in introduces, not the lead-in alone", () => {
    const answer = ask("How do I wipe the object files from the build tree?", [{
      path: "guide.pdf",
      text: "4.2 Cleaning\n\nTo wipe the object files from the build tree, type the command as follows:\n\n" +
        "$ make distclean\n\nAfter that the tree holds only the sources you started from."
    }])
    expect(answer).toContain("as follows: $ make distclean")
  })

  it("answers a question about a quantity only with a sentence holding a number", () => {
    const delivery = {
      path: "faq.md",
      text:
        "Delivery\n\nOur couriers deliver to Tehran and Shiraz, to your door.\nDelivery to Tehran takes three working days."
    }
    expect(ask("Delivery to Tehran takes how many days?", [delivery])).toContain("three working days")
    const couriers = { path: "faq.md", text: "Delivery\n\nOur couriers deliver to Tehran and Shiraz, to your door." }
    expect(ask("How many couriers deliver to Tehran?", [couriers])).toMatch(/^I don't know/)
    // The number must count what is asked about: a format's version is no count of packages.
    const formats = {
      path: "guide.pdf",
      text: "Source format\n\nDebian packages in the archive use the 3.0 (quilt) format."
    }
    expect(ask("How many packages does the Debian archive hold?", [formats])).toMatch(/^I don't know/)
    const days = { path: "faq.md", text: "تعمیر\n\nتعمیر در کارگاه مرکزی دو تا چهار روز کاری زمان می‌برد." }
    expect(ask("تعمیر در کارگاه چند روز زمان می‌برد؟", [days], { language: "fa" })).toContain("چهار روز")
  })
})

describe("OfflineModel declining loose matches", () => {
  // Three sections of a security FAQ: ports, an identd answer, the default users; nothing about SSH.
  const ports = [
    {
      path: "faq.docx",
      text: "FAQ › 12.1 Security in Debian › 12.1.14 Why do I have port 111 open?\n\n" +
        "Port 111 is sunrpc's portmapper, and it is installed by default as part of Debian's base installation since " +
        "there is no need to know when a user's program might need RPC to work correctly. In any case, it is used mostly " +
        "for NFS.\nIn versions of the portmap package later than 5-5 you can actually have the portmapper installed but " +
        "listening only on localhost."
    },
    {
      path: "faq.docx",
      text: "FAQ › 12.1 Security in Debian › 12.1.15 What use is identd (port 113) for?\n\n" +
        "Identd service is an authentication service that identifies the owner of a specific TCP/IP connection to the " +
        "remote server accepting the connection. Typically, when a user connects to a remote host, inetd on the remote " +
        "host sends back a query to port 113 to find the owner information. It is often used by mail, FTP and IRC servers."
    },
    {
      path: "faq.docx",
      text: "FAQ › 12.1 Security in Debian › 12.1.12 Are all system users necessary?\n\n" +
        "The list of default users (with a corresponding group) follows:\n- www-data: Some web servers run as www-data.\n" +
        "- lp: Used by printer daemons."
    }
  ]

  it("declines when a weighty word of the question is in no passage and the best match is outside a section about it", () => {
    expect(ask("Which port does the telnet daemon use out of the box?", ports)).toMatch(/^I don't know/)
  })

  it("still answers from the section the question is about", () => {
    expect(ask("Why does my machine listen on port 111?", ports)).toContain("portmapper")
    expect(ask("Which user account do the web servers run under?", ports)).toContain("www-data")
  })

  it("answers for a place the passages only name in general, from a section about the question", () => {
    const shipping = [
      {
        path: "shipping.md",
        text: "Shipping › Delivery times\n\nOrders placed before 2 pm leave our warehouse the same day. " +
          "Delivery inside Tehran takes one to two working days. Delivery to other cities takes three to five working days."
      },
      { path: "shipping.md", text: "Shipping › Tracking\n\nEvery order gets a tracking code by SMS when it leaves." }
    ]
    expect(ask("Can you send an order to Tabriz? How many days?", shipping)).toContain(
      "three to five working days"
    )
  })
})

describe("OfflineModel reading an FAQ kept in one section", () => {
  // A window cleaner's FAQ: each question on a line of its own (or opening its answer's line), no headings.
  const windows = {
    path: "windows-faq.md",
    text: "Sparkle Windows — Questions\n\n**How much is a callout for a conservatory?**\n" +
      "Each round costs £65 for a standard roof, gutters included.\n" +
      "**Do you work in the rain?** Light rain is fine for us; we rebook in storms at no charge.\n" +
      "**Which areas do you cover?**\nEvery postcode within twelve miles of the depot."
  }

  it("reads a question on its own line as the heading of the answer under it", () => {
    const answer = ask("what's the callout price for a conservatory", [windows])
    expect(answer).toContain("£65")
    expect(answer).not.toContain("How much is a callout")
  })

  it("reads a question opening a line as the heading of the rest of the line", () => {
    expect(ask("do you still work in heavy rain?", [windows])).toContain("we rebook in storms")
  })

  it("quotes no question line as an answer", () => {
    expect(ask("Do you clean solar panels?", [windows])).not.toContain("Which areas do you cover?\"")
  })

  it("does the same in Persian", () => {
    const faq = {
      path: "shishe.md",
      text: "شیشه‌شویی برق — پرسش‌ها\n\n**هزینهٔ اعزام نیرو برای نمای ساختمان چقدر است؟**\n" +
        "هر نوبت برای ساختمان چهار طبقه ۹۰۰ هزار تومان است.\n**روزهای تعطیل هم کار می‌کنید؟**\nبله، با دو روز فرصت از پیش."
    }
    expect(ask("هزینه اعزام نیرو برای نما چنده", [faq], { language: "fa" })).toContain("۹۰۰ هزار تومان")
  })
})
