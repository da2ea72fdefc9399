/** The kitchen display feature (issue 35): its page is reached through the route table only. */
export {};
